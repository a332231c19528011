package io.fulcrum.cfg;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * docs/keywords.md must list every keyword of the inventory with the status docs/keyword-status.tsv gives
 * it: when either changes, rerun {@code python3 tools/gen-keyword-docs.py}.
 */
class KeywordDocsTest {
    private static final Pattern HEADING = Pattern.compile("^## .*\\(`([^`]+)`\\)\\s*$");
    private static final Pattern ROW = Pattern.compile("^\\| `([^`]+)` \\| ([^|]+?) \\|");
    private static final String REGENERATE = "; run python3 tools/gen-keyword-docs.py";

    /** Context -> keyword -> status, as docs/keywords.md shows them. */
    private static final Map<String, Map<String, String>> DOCS = new TreeMap<>();

    private static Path base() {
        return Path.of(System.getProperty("basedir", ""));
    }

    @BeforeAll
    static void readDocs() throws IOException {
        String context = null;
        for (String line : Files.readAllLines(base().resolve("docs/keywords.md"), StandardCharsets.UTF_8)) {
            Matcher heading = HEADING.matcher(line);
            Matcher row = ROW.matcher(line);
            if (heading.matches()) {
                context = heading.group(1);
                DOCS.put(context, new LinkedHashMap<>());
            } else if (context != null && row.find()) {
                DOCS.get(context).put(row.group(1), row.group(2).strip());
            }
        }
    }

    @Test
    void everyKeywordOfTheInventoryIsDocumented() {
        List<String> missing = new ArrayList<>();
        for (String context : HaproxyKeywords.contexts()) {
            Map<String, String> documented = DOCS.getOrDefault(context, Map.of());
            for (String keyword : HaproxyKeywords.all(context)) {
                if (!documented.containsKey(keyword)) {
                    missing.add(context + " " + keyword);
                }
            }
        }
        assertThat(missing).as("keywords missing from docs/keywords.md" + REGENERATE).isEmpty();
    }

    @Test
    void docsListOnlyKeywordsOfTheInventory() {
        List<String> stale = new ArrayList<>();
        DOCS.forEach((context, keywords) -> keywords.keySet().stream()
                .filter(k -> !HaproxyKeywords.knows(context, k))
                .forEach(k -> stale.add(context + " " + k)));
        assertThat(stale).as("docs/keywords.md lists keywords HAProxy does not document" + REGENERATE).isEmpty();
        assertThat(DOCS.values()).allSatisfy(keywords -> assertThat(keywords.values())
                .allSatisfy(s -> assertThat(s).isIn("supported", "partial", "not yet")));
    }

    @Test
    void docsShowTheStatusOfTheStatusFile() throws IOException {
        List<String> wrong = new ArrayList<>();
        for (String line : Files.readAllLines(base().resolve("docs/keyword-status.tsv"), StandardCharsets.UTF_8)) {
            if (line.isBlank() || line.startsWith("#") || line.startsWith("context\t")) {
                continue;
            }
            String[] cols = line.split("\t", -1);
            assertThat(cols.length).as("columns of '%s'", line).isBetween(3, 4);
            String context = cols[0].strip();
            String keyword = cols[1].strip();
            String status = cols[2].strip();
            assertThat(status).as("status of '%s'", line).isIn("supported", "partial", "not yet");
            assertThat(HaproxyKeywords.knows(context, keyword)).as("'%s' names an HAProxy keyword", line).isTrue();
            String shown = DOCS.getOrDefault(context, Map.of()).get(keyword);
            if (!status.equals(shown)) {
                wrong.add(context + " " + keyword + ": " + status + " in the TSV, " + shown + " in the docs");
            }
        }
        assertThat(wrong).as("docs/keywords.md is older than docs/keyword-status.tsv" + REGENERATE).isEmpty();
    }
}
