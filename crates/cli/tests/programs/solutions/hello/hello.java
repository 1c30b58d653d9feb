// Hello world (Java 17): prints exactly "hello\n".
public class Main {
    public static void main(String[] args) {
        System.out.println("hello");
    }
}
