// A library catalogue, to exercise the Java grammar.
package org.example.catalog;

import java.time.LocalDate;
import java.util.*;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/** A book on a shelf. */
public record Book(String isbn, String title, String author, int year) implements Comparable<Book> {
    public Book {
        Objects.requireNonNull(isbn, "isbn");
        if (year < 0) throw new IllegalArgumentException("year " + year);
    }

    @Override
    public int compareTo(Book other) {
        return Comparator.comparing(Book::author).thenComparingInt(Book::year).compare(this, other);
    }
}

sealed interface Loan permits Loan.Active, Loan.Returned {
    Book book();

    record Active(Book book, LocalDate due) implements Loan {}

    record Returned(Book book, LocalDate on) implements Loan {}
}

enum Genre {
    FICTION("Roman"),
    SCIENCE("Wissenschaft"),
    POETRY("Gedichte");

    private final String german;

    Genre(String german) {
        this.german = german;
    }

    public String german() {
        return german;
    }
}

@FunctionalInterface
interface Rule<T> extends Predicate<T> {
    default Rule<T> and(Rule<T> other) {
        return t -> test(t) && other.test(t);
    }
}

public class Catalog<B extends Book> implements Iterable<B> {
    private static final String GREETING = "Grüße aus der Bücherei — 图书馆 📚";
    private final Map<String, B> books = new ConcurrentHashMap<>();
    private final List<Loan> loans = new ArrayList<>();
    private int größe;

    public void add(B book) {
        books.putIfAbsent(book.isbn(), book);
        größe = books.size();
    }

    public Optional<B> find(String isbn) {
        return Optional.ofNullable(books.get(isbn));
    }

    public List<B> search(Rule<? super B> rule) {
        return books.values().stream().filter(rule).sorted().collect(Collectors.toList());
    }

    public synchronized void lend(String isbn, LocalDate due) throws NoSuchElementException {
        B book = find(isbn).orElseThrow();
        loans.add(new Loan.Active(book, due));
    }

    String describe(Loan loan) {
        return switch (loan) {
            case Loan.Active a when a.due().isBefore(LocalDate.now()) -> "overdue: " + a.book().title();
            case Loan.Active a -> "lent until " + a.due();
            case Loan.Returned r -> "returned on " + r.on();
        };
    }

    @Override
    public Iterator<B> iterator() {
        return books.values().iterator();
    }

    public static void main(String[] args) throws Exception {
        var catalog = new Catalog<Book>();
        catalog.add(new Book("978-3", "Der Zauberberg", "Thomas Mann", 1924));
        catalog.add(new Book("978-1", "Faust", "Goethe", 1808));
        Rule<Book> old = b -> b.year() < 1900;
        for (Book b : catalog.search(old)) {
            System.out.printf("%s (%d)%n", b.title(), b.year());
        }
        int[] counts = new int[Genre.values().length];
        counts[Genre.POETRY.ordinal()] += 1;
        String text = """
            Ein Textblock
            über mehrere Zeilen
            """;
        Runnable r = () -> System.out.println(GREETING + text + catalog.größe);
        new Thread(r).start();
        char c = '\u00e9';
        long big = 0xFFFF_FFFFL;
        label:
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] > 0) break label;
        }
        System.out.println(c + " " + big + " " + (args.length > 0 ? args[0] : "none"));
    }
}
