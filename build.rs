// New SQL files must rebuild the binary that embeds them.
fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
