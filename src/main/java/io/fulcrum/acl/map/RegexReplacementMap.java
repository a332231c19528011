package io.fulcrum.acl.map;

import io.fulcrum.acl.PatternFile;
import io.fulcrum.acl.RegexList;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.sample.Sample;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;

/**
 * The map of "map_regm": keys are regexes tried in order, and the value of the first that matches is a
 * template where back-references ("\1") stand for what the regex's groups matched.
 */
final class RegexReplacementMap implements MapTable {
    private final RegexList keys;
    private final String[] templates;

    private RegexReplacementMap(RegexList keys, String[] templates) {
        this.keys = keys;
        this.templates = templates;
    }

    static RegexReplacementMap compile(List<PatternFile.Entry> entries, String file) throws ConfigException {
        return new RegexReplacementMap(RegexList.compile(IndexedMap.keys(entries, file)),
                entries.stream().map(PatternFile.Entry::value).toArray(String[]::new));
    }

    @Override
    public int find(Sample smp) {
        return keys.find(smp);
    }

    /** The default value applies when no key matches, not when a value cannot be expanded. */
    @Override
    public boolean convert(Sample smp, Sample fallback) {
        RegexList.Hit hit = keys.first(smp.text());
        if (hit == null) {
            if (fallback == null) {
                return false;
            }
            smp.copyFrom(fallback);
            return true;
        }
        byte[] value = expand(templates[hit.position()], hit.matcher());
        return value != null && smp.setStr(value);
    }

    /**
     * The template with, as HAProxy writes it: "\0" to "\9" replaced by the whole match or a group (empty
     * when it did not take part), "\xHH" by the byte of two hex digits, '\' before any other character by
     * that character. A template ending inside an escape has no value (null).
     */
    static byte[] expand(String template, Matcher m) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(template.length() + 16);
        for (int i = 0; i < template.length(); i++) {
            char c = template.charAt(i);
            if (c != '\\') {
                out.write(c);
                continue;
            }
            if (++i >= template.length()) {
                return null;
            }
            char e = template.charAt(i);
            if (e >= '0' && e <= '9') {
                int g = e - '0';
                String group = g <= m.groupCount() ? m.group(g) : null;
                if (group != null) {
                    out.writeBytes(group.getBytes(StandardCharsets.ISO_8859_1));
                }
            } else if (e == 'x') {
                if (i + 2 >= template.length()) {
                    return null;
                }
                out.write((hexDigit(template.charAt(i + 1)) << 4) + hexDigit(template.charAt(i + 2))); // low 8 bits
                i += 2;
            } else {
                out.write(e);
            }
        }
        return out.toByteArray();
    }

    /**
     * A hex digit's value. HAProxy does not check the digits: another character counts as its distance
     * from 'A' (after ASCII upper-casing) plus 10, which this reproduces ("\xZZ" is 'S').
     */
    private static int hexDigit(char c) {
        return c >= '0' && c <= '9' ? c - '0' : (c >= 'a' && c <= 'z' ? c - 32 : c) - 'A' + 10;
    }
}
