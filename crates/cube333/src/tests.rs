//! The phase-1 table against the published distribution of the
//! 2,217,093,120 phase-1 cosets (Kociemba; twsearch's 3p1 run), inside the
//! crate because the tables are not part of its public surface. (How the
//! tables fare in a cache directory is tested with the store.)

mod phase1_distribution {
    use twistor_core::store::NoStore;

    use crate::coord::N_TWIST;
    use crate::prune::phase1_table;
    use crate::tables::CoordTables;

    #[test]
    fn phase1_table_reproduces_the_coset_distribution() {
        let table = phase1_table(&NoStore, &mut |_| {});
        let t = CoordTables::get();
        let dist = table.raw_distribution(N_TWIST, |c| t.flipslice().class_size(c));
        assert_eq!(
            dist,
            vec![
                1, 4, 50, 592, 7156, 87236, 1043817, 12070278, 124946368, 821605960, 1199128738,
                58202444, 476
            ]
        );
        assert_eq!(dist.iter().sum::<u64>(), 2_217_093_120);
    }
}
