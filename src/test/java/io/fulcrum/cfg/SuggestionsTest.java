package io.fulcrum.cfg;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class SuggestionsTest {

    @Test
    void suggestsTheClosestKeywordForATypo() {
        List<String> known = List.of("bind", "balance", "backlog", "timeout");
        assertThat(Suggestions.closest("bnid", known)).isEqualTo("bind");
        assertThat(Suggestions.closest("timout", known)).isEqualTo("timeout");
        assertThat(Suggestions.closest("blance", known)).isEqualTo("balance");
    }

    @Test
    void suggestsWhatHaproxySuggests() {
        // Answers of haproxy 2.6 for these words in a listen section, among some of its candidates.
        List<String> known = List.of("cookie", "id", "use-server", "usesrc", "unique-id-header", "http-check", "transparent");
        assertThat(Suggestions.closest("user", known)).isEqualTo("usesrc");
        assertThat(Suggestions.closest("Set-Cookie:", known)).isEqualTo("cookie");
        assertThat(Suggestions.closest("User-Agent:", known)).isEqualTo("use-server");
        assertThat(Suggestions.closest("X-Unique-ID:", known)).isEqualTo("unique-id-header");
        assertThat(Suggestions.closest("set-param", known)).isEqualTo("transparent");
        assertThat(Suggestions.closest("if", known)).as("too far from 'id' for two letters").isNull();
    }

    @Test
    void suggestsNothingForAnUnrelatedWord() {
        assertThat(Suggestions.closest("frobnicate", List.of("bind", "balance"))).isNull();
        assertThat(Suggestions.closest("x", List.of())).isNull();
    }

    @Test
    void measuresTheDifferenceOfCharacterTransitions() {
        assertThat(Suggestions.distance("bind", "bind")).isZero();
        assertThat(Suggestions.distance("bind", "BIND")).isZero();
        // 'if' and 'id': i->f, f->end and f present against i->d, d->end and d present
        assertThat(Suggestions.distance("if", "id")).isEqualTo(6);
        assertThat(Suggestions.distance("", "a")).isEqualTo(4); // start->end against start->a, a->end, a present
    }
}
