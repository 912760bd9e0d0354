use super::*;
use crate::pool::Stop;

#[test]
fn placeholder_compiles() {
    let b = Board::from_moves(15, Rule::Freestyle, &[(7, 7)]).unwrap();
    let r = search(
        &b,
        &Limits {
            max_depth: Some(3),
            max_nodes: None,
        },
        &Stop::never(),
    );
    assert!(b.is_legal(r.best));
}
