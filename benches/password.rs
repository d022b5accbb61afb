//! The cost of one argon2id password hash (sign-in and account creation pay it).
//!
//! `cargo bench --bench password`

use criterion::{Criterion, criterion_group, criterion_main};
use quire::accounts::password;

fn hashing(c: &mut Criterion) {
    let mut group = c.benchmark_group("password");
    group.sample_size(20);
    group.bench_function("argon2id hash", |b| {
        b.iter(|| password::hash("correct horse battery staple").unwrap())
    });
    let stored = password::hash("correct horse battery staple").unwrap();
    group.bench_function("argon2id verify", |b| {
        b.iter(|| password::verify("correct horse battery staple", &stored))
    });
    group.finish();
}

criterion_group!(benches, hashing);
criterion_main!(benches);
