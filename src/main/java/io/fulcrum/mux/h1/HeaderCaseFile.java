package io.fulcrum.mux.h1;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.Diagnostics;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads {@code h1-case-adjust-file} once the configuration is parsed, as HAProxy does: two names a line (the name,
 * then the name in the case to write, which is the rest of the line), blanks around them ignored, empty lines and
 * lines starting with '#' skipped; the first bad line stops the reading with an alert.
 */
final class HeaderCaseFile {
    private HeaderCaseFile() {
    }

    static void read(String file, H1Settings into, Diagnostics diag) {
        List<String> lines;
        try {
            lines = Files.readAllLines(Path.of(file), StandardCharsets.ISO_8859_1);
        } catch (IOException | RuntimeException e) {
            diag.configAlert("h1-headers-case-adjust-file '" + file + "': failed to open file.");
            return;
        }
        for (int n = 0; n < lines.size(); n++) {
            String line = lines.get(n).replace("\r", "");
            int from = skipBlanks(line, 0);
            if (from == line.length() || line.charAt(from) == '#') {
                continue;
            }
            int fromEnd = from;
            while (fromEnd < line.length() && !isBlank(line.charAt(fromEnd))) {
                fromEnd++;
            }
            int to = skipBlanks(line, fromEnd);
            int toEnd = line.length();
            while (toEnd > to && isBlank(line.charAt(toEnd - 1))) {
                toEnd--;
            }
            try {
                into.adjustCase(line.substring(from, fromEnd), line.substring(to, toEnd));
            } catch (ConfigException e) {
                diag.configAlert("h1-headers-case-adjust-file '" + file + "' : " + e.getMessage() + " at line " + (n + 1) + ".");
                return;
            }
        }
    }

    private static int skipBlanks(String s, int i) {
        while (i < s.length() && isBlank(s.charAt(i))) {
            i++;
        }
        return i;
    }

    private static boolean isBlank(char c) {
        return c == ' ' || c == '\t';
    }
}
