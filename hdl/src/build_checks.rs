//! What the per-port blocks share when they are built: the port-capacity
//! check, its error, and constructors for constants and zeroed RAM.

use rust_hdl::prelude::*;
use rust_hdl::widgets::prelude::RAM;

/// A configuration a block cannot be built for, naming the value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildError(pub String);

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BuildError {}

/// Checks that `A` address bits (`A - 3` port bits, 3 pool bits) hold `ports`.
pub fn check_ports<const A: usize>(block: &str, ports: usize) -> Result<(), BuildError> {
    if !(4..=11).contains(&A) {
        return Err(BuildError(format!("{block}: address width A = {A} bits: supported 4 to 11 (2 to 256 ports)")));
    }
    let capacity = 1usize << (A - 3);
    if ports == 0 || ports > capacity {
        return Err(BuildError(format!("ports = {ports}: a {block} with A = {A} address bits holds 1 to {capacity} ports")));
    }
    Ok(())
}

/// An 8-bit constant (register addresses).
pub fn c8(v: u8) -> Constant<Bits<8>> {
    Constant::new(Bits::<8>::from(v as LiteralType))
}

/// A RAM of `2^N` entries, all zero from the bitstream on (Verilog RAM
/// would otherwise start unknown).
pub fn zero_ram<D: Synth, const N: usize>() -> RAM<D, N> {
    RAM::from(std::iter::repeat_n(D::default(), 1 << N))
}

/// An array of default values of any length (`Default` stops at 32).
pub fn many<T: Default, const N: usize>() -> [T; N] {
    std::array::from_fn(|_| T::default())
}
