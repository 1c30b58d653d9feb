// Hello world (Rust): prints exactly "hello\n".
fn main() {
    println!("hello");
}
