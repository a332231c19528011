package io.fulcrum.cfg;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class KeywordTableTest {

    @Test
    void findsRegisteredKeywordsWithTheirFlags() {
        KeywordTable<StringBuilder> t = new KeywordTable<>("global", "");
        t.add("maxconn", 3, (sb, l) -> sb.append(l.arg(1)));
        assertThat(t.find("maxconn").flags()).isEqualTo(3);
        assertThat(t.find("nbthread")).isNull();
        assertThat(t.names()).containsExactly("maxconn");
    }

    @Test
    void refusesToRegisterAKeywordTwice() {
        KeywordTable<Object> t = new KeywordTable<>("global", "");
        t.add("maxconn", (o, l) -> { });
        assertThatThrownBy(() -> t.add("maxconn", (o, l) -> { })).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aKeywordHaproxyDocumentsIsReportedAsNotSupportedYet() {
        KeywordTable<Object> t = new KeywordTable<>("option", "option ");
        assertThat(t.unknown("forwardfor", "unknown option 'forwardfor'.").getMessage())
                .isEqualTo("'option forwardfor' is an HAProxy keyword that Fulcrum does not support yet.");
    }

    @Test
    void anUnknownKeywordGetsADidYouMean() {
        KeywordTable<Object> t = new KeywordTable<>("global", "");
        t.add("nbthread", (o, l) -> { });
        assertThat(t.unknown("nbtread", "unknown keyword 'nbtread' in 'global' section").getMessage())
                .isEqualTo("unknown keyword 'nbtread' in 'global' section; did you mean 'nbthread' maybe ?");
        assertThat(t.unknown("zzzzzzzzzz", "unknown keyword 'zzzzzzzzzz' in 'global' section").getMessage())
                .isEqualTo("unknown keyword 'zzzzzzzzzz' in 'global' section");
    }
}
