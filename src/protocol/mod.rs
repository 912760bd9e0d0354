//! Protocol front ends: the text protocols other programs speak to the
//! engines, beside the HTTP layer ([`crate::http`]).
//!
//! * [`piskvork`]: Gomocup's brain protocol over stdin/stdout (the
//!   `pbrain-gamebot` binary).
//! * [`mjai`]: the Riichi mjai event log, over stdin/stdout (`gamebot mjai`)
//!   and `POST /mahjong/mjai`.

pub mod mjai;
pub mod piskvork;
