package io.fulcrum.it;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A strict parser of Prometheus's text exposition format (0.0.4): it refuses what a scraper would, and more
 * (a sample before its family's TYPE, a family split in two, a duplicate series, a bad escape, a histogram
 * whose buckets are not cumulative or whose +Inf bucket is not its count).
 */
final class PromText {
    private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\\\n]|\\\\[\\\\\"n])*)\"");

    record Sample(String name, Map<String, String> labels, double value) {
    }

    record Family(String name, String type, String help, List<Sample> samples) {
    }

    final Map<String, Family> families = new LinkedHashMap<>();

    static PromText parse(String text) {
        PromText p = new PromText();
        Set<String> closed = new HashSet<>();
        Set<String> series = new HashSet<>();
        String current = null;
        Map<String, String> helps = new LinkedHashMap<>();
        int n = 0;
        for (String line : text.split("\n", -1)) {
            n++;
            if (line.isEmpty()) {
                continue;
            }
            if (line.startsWith("# HELP ")) {
                String[] w = line.substring(7).split(" ", 2);
                check(NAME.matcher(w[0]).matches(), n, "bad name in HELP: " + line);
                check(!helps.containsKey(w[0]), n, "second HELP for " + w[0]);
                helps.put(w[0], w.length > 1 ? w[1] : "");
                continue;
            }
            if (line.startsWith("# TYPE ")) {
                String[] w = line.substring(7).split(" ");
                check(w.length == 2 && NAME.matcher(w[0]).matches(), n, "bad TYPE line: " + line);
                check(List.of("counter", "gauge", "histogram", "summary", "untyped").contains(w[1]), n, "bad type: " + line);
                check(!p.families.containsKey(w[0]), n, "second TYPE for " + w[0]);
                if (current != null) {
                    closed.add(current);
                }
                current = w[0];
                p.families.put(w[0], new Family(w[0], w[1], helps.get(w[0]), new ArrayList<>()));
                continue;
            }
            check(!line.startsWith("#"), n, "unknown comment: " + line);
            Sample s = sample(line, n);
            String family = familyOf(s.name(), p);
            check(family != null, n, "sample without a TYPE: " + line);
            check(family.equals(current) && !closed.contains(family), n, "family " + family + " split: " + line);
            check(series.add(s.name() + s.labels()), n, "duplicate series: " + line);
            p.families.get(family).samples().add(s);
        }
        p.families.values().forEach(f -> {
            if (f.type().equals("histogram")) {
                histogram(f);
            }
            if (f.type().equals("counter")) {
                f.samples().forEach(s -> check(Double.isNaN(s.value()) || s.value() >= 0, 0, "negative counter " + s));
            }
        });
        return p;
    }

    private static String familyOf(String sample, PromText p) {
        if (p.families.containsKey(sample)) {
            return sample;
        }
        for (String suffix : List.of("_bucket", "_sum", "_count")) {
            if (sample.endsWith(suffix)) {
                String base = sample.substring(0, sample.length() - suffix.length());
                Family f = p.families.get(base);
                if (f != null && f.type().equals("histogram")) {
                    return base;
                }
            }
        }
        return null;
    }

    private static Sample sample(String line, int n) {
        int brace = line.indexOf('{');
        int space = line.lastIndexOf(' ');
        check(space > 0, n, "no value: " + line);
        String name = brace >= 0 && brace < space ? line.substring(0, brace) : line.substring(0, space);
        check(NAME.matcher(name).matches(), n, "bad metric name: " + line);
        Map<String, String> labels = new LinkedHashMap<>();
        if (brace >= 0 && brace < space) {
            int close = line.lastIndexOf('}', space);
            check(close > brace && close == space - 1, n, "bad label set: " + line);
            String body = line.substring(brace + 1, close);
            Matcher m = LABEL.matcher(body);
            int at = 0;
            while (at < body.length()) {
                check(m.find(at) && m.start() == at, n, "bad label at " + at + ": " + line);
                check(labels.put(m.group(1), m.group(2)) == null, n, "duplicate label: " + line);
                at = m.end();
                if (at < body.length()) {
                    check(body.charAt(at) == ',', n, "labels not separated by commas: " + line);
                    at++;
                }
            }
        }
        String v = line.substring(space + 1);
        double value;
        switch (v) {
            case "NaN" -> value = Double.NaN;
            case "+Inf" -> value = Double.POSITIVE_INFINITY;
            case "-Inf" -> value = Double.NEGATIVE_INFINITY;
            default -> {
                check(v.matches("-?\\d+(\\.\\d+)?([eE][-+]?\\d+)?"), n, "bad value: " + line);
                value = Double.parseDouble(v);
            }
        }
        return new Sample(name, labels, value);
    }

    /** Per series: buckets with ascending bounds, cumulative counts, +Inf last and equal to _count. */
    private static void histogram(Family f) {
        Map<String, List<Sample>> buckets = new LinkedHashMap<>();
        Map<String, Double> counts = new LinkedHashMap<>();
        for (Sample s : f.samples()) {
            Map<String, String> key = new LinkedHashMap<>(s.labels());
            key.remove("le");
            if (s.name().endsWith("_bucket")) {
                check(s.labels().containsKey("le"), 0, "bucket without le: " + s);
                buckets.computeIfAbsent(key.toString(), k -> new ArrayList<>()).add(s);
            } else if (s.name().endsWith("_count")) {
                counts.put(key.toString(), s.value());
            }
        }
        buckets.forEach((key, list) -> {
            double bound = Double.NEGATIVE_INFINITY;
            double count = 0;
            for (Sample b : list) {
                double le = b.labels().get("le").equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(b.labels().get("le"));
                check(le > bound, 0, "bounds not ascending in " + f.name() + key);
                check(b.value() >= count, 0, "buckets not cumulative in " + f.name() + key);
                bound = le;
                count = b.value();
            }
            check(bound == Double.POSITIVE_INFINITY, 0, "no +Inf bucket in " + f.name() + key);
            check(counts.containsKey(key) && counts.get(key) == count, 0, "+Inf bucket is not _count in " + f.name() + key);
        });
    }

    /** The value of the series {@code name} with exactly {@code labels}. */
    double value(String name, Map<String, String> labels) {
        for (Family f : families.values()) {
            for (Sample s : f.samples()) {
                if (s.name().equals(name) && s.labels().equals(labels)) {
                    return s.value();
                }
            }
        }
        throw new AssertionError("no series " + name + labels);
    }

    private static void check(boolean ok, int line, String what) {
        if (!ok) {
            throw new AssertionError((line > 0 ? "line " + line + ": " : "") + what);
        }
    }
}
