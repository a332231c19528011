package io.fulcrum.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The lines a run must print, as written in a corpus {@code .expected} file. Each line of the file is a
 * whole line the output must contain, in this order (other lines may come between them); the PID is
 * written {@code (PID)}, {@code <*>} stands for any text, and a line starting with {@code !} is text that
 * must appear nowhere in the output. Trailing blanks are ignored; leading blanks count (the caret lines).
 */
public final class Expected {
    private final List<String> lines;
    private final List<String> forbidden;

    private Expected(List<String> lines, List<String> forbidden) {
        this.lines = lines;
        this.forbidden = forbidden;
    }

    public static Expected load(Path file) throws IOException {
        return parse(Files.readAllLines(file, StandardCharsets.ISO_8859_1));
    }

    /** Expectations written inline, in the format of the files. */
    public static Expected of(String... lines) {
        return parse(List.of(lines));
    }

    private static Expected parse(List<String> text) {
        List<String> lines = new ArrayList<>();
        List<String> forbidden = new ArrayList<>();
        for (String l : text) {
            l = l.stripTrailing();
            if (l.isEmpty()) {
                continue;
            }
            if (l.startsWith("!")) {
                forbidden.add(l.substring(1));
            } else {
                lines.add(l);
            }
        }
        return new Expected(lines, forbidden);
    }

    public boolean isEmpty() {
        return lines.isEmpty() && forbidden.isEmpty();
    }

    /** Fails unless {@code output} (PID already masked) has every expected line in order and no forbidden text. */
    public void assertIn(String output, String context) {
        List<String> actual = output.lines().map(String::stripTrailing).toList();
        int from = 0;
        for (String want : lines) {
            Pattern p = pattern(want);
            int found = -1;
            for (int i = from; i < actual.size(); i++) {
                if (p.matcher(actual.get(i)).matches()) {
                    found = i;
                    break;
                }
            }
            if (found < 0) {
                boolean anywhere = actual.stream().anyMatch(a -> p.matcher(a).matches());
                throw new AssertionError("expected line " + (anywhere ? "(present, but out of order) " : "") + "not found:\n  "
                        + want + "\nin output:\n" + FulcrumRun.printable(output) + "\n" + context);
            }
            from = found + 1;
        }
        for (String no : forbidden) {
            if (output.contains(no)) {
                throw new AssertionError("output must not contain: " + no + "\noutput:\n" + FulcrumRun.printable(output) + "\n" + context);
            }
        }
    }

    private static Pattern pattern(String line) {
        StringBuilder re = new StringBuilder();
        int at = 0;
        for (int star; (star = line.indexOf("<*>", at)) >= 0; at = star + 3) {
            re.append(Pattern.quote(line.substring(at, star))).append(".*");
        }
        re.append(Pattern.quote(line.substring(at)));
        return Pattern.compile(re.toString(), Pattern.DOTALL);
    }
}
