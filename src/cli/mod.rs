//! The command line (SPEC section 2).
