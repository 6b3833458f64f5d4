package com.example.store;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** An inventory of items. */
public class Inventory implements Iterable<String> {
    private final Map<String, Integer> counts = new HashMap<>();
    private final List<String> log = new ArrayList<>();
    private static final int LIMIT = 100;

    public Inventory() {
        this(LIMIT);
    }

    public Inventory(int limit) {
        if (limit <= 0) {
            throw new IllegalArgumentException("limit must be positive");
        }
    }

    @Override
    public java.util.Iterator<String> iterator() {
        return counts.keySet().iterator();
    }

    public void add(String name, int n) {
        counts.put(name, counts.getOrDefault(name, 0) + n);
        log.add("add " + name);
    }

    public boolean remove(String name) {
        if (!counts.containsKey(name)) {
            return false;
        }
        counts.remove(name);
        log.add("remove " + name);
        return true;
    }

    public Optional<Integer> count(String name) {
        return Optional.ofNullable(counts.get(name));
    }

    @Deprecated
    public int total() {
        int sum = 0;
        for (int c : counts.values()) {
            sum += c;
        }
        return sum;
    }

    public static void main(String[] args) {
        Inventory inv = new Inventory();
        inv.add("apple", 3);
        inv.add("pear", 2);
        try {
            inv.remove("apple");
        } catch (IllegalStateException e) {
            System.err.println(e.getMessage());
        } finally {
            System.out.println("done");
        }
        System.out.println(inv.total());
        System.out.println(inv.count("pear").orElse(0));
        if (inv.total() == inv.total()) {
            System.out.println("stable");
        }
    }
}
