//! One module per subcommand.

pub mod apply;
pub mod canon;
pub mod convert;
pub mod cube333;
pub mod geometry;
pub mod gods;
pub mod info;
pub mod invert;
pub mod order;
pub mod show;
pub mod solve;
