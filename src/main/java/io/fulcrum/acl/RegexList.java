package io.fulcrum.acl;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.sample.PcreRegex;
import io.fulcrum.sample.Sample;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Regular expressions (in HAProxy's PCRE syntax) tried in order on the sample's text; the first that
 * finds a match is chosen.
 */
public final class RegexList implements PatternIndex {
    private final Pattern[] regexes;

    private RegexList(Pattern[] regexes) {
        this.regexes = regexes;
    }

    public static RegexList compile(List<PatternValue> patterns) throws ConfigException {
        Pattern[] regexes = new Pattern[patterns.size()];
        for (int k = 0; k < regexes.length; k++) {
            PatternValue p = patterns.get(k);
            try {
                regexes[k] = PcreRegex.compile(p.text(), p.ignoreCase());
            } catch (PatternSyntaxException e) {
                throw p.locate(new ConfigException("regex '" + p.text() + "' is invalid" + PcreRegex.reason(e)));
            }
        }
        return new RegexList(regexes);
    }

    @Override
    public int find(Sample smp) {
        return (int) findLive(smp, Holes.NONE);
    }

    @Override
    public long findLive(Sample smp, Holes holes) {
        String text = smp.text();
        for (int k = 0; k < regexes.length; k++) {
            if (!holes.has(k) && regexes[k].matcher(text).find()) {
                return k;
            }
        }
        return -1;
    }

    @Override
    public boolean skipsHoles() {
        return true;
    }

    /** The first regex's match in {@code text}, with its groups and position, or null when none matches. */
    public Hit first(String text) {
        for (int k = 0; k < regexes.length; k++) {
            Matcher m = regexes[k].matcher(text);
            if (m.find()) {
                return new Hit(k, m);
            }
        }
        return null;
    }

    /** A match: which regex, and the matcher positioned on it. */
    public record Hit(int position, Matcher matcher) {
    }
}
