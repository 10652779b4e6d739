//! One module per subcommand.

pub mod cube333;
