//! One module per subcommand.

pub mod algio;
pub mod apply;
pub mod bench;
pub mod cancel;
pub mod canon;
pub mod canonicalize;
pub mod convert;
pub mod cube333;
pub mod describe_sets;
pub mod geometry;
pub mod gods;
mod gods_cosets;
mod gods_sharded;
pub mod info;
pub mod invert;
pub mod order;
pub mod random;
pub mod scramble;
pub mod serve;
pub mod shorten;
pub mod show;
pub mod solve;
pub mod unique;
pub mod unrotate;
