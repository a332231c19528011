package io.fulcrum.rules;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The rules' regexes (replace-header, replace-value, replace-path/uri, del-header -m reg) are read as HAProxy's PCRE reads them. */
class RuleRegexTest {

    @Test
    void pcreSyntax() throws Exception {
        assertThat(HeaderActions.regex("^[[:digit:]]+$", "").matcher("2024").find()).isTrue();
        assertThat(HeaderActions.regex("^[[:digit:]]+$", "").matcher("d:g").find()).isFalse();
        assertThat(HeaderActions.regex("[[]x", "").matcher("a[x").find()).isTrue();
        assertThat(HeaderActions.regex("[a&&b]", "").matcher("&").find()).isTrue();
        assertThat(HeaderActions.regex("a.b", "").matcher("a\rb").find()).isTrue(); // only \\n ends a line
    }

    @Test
    void invalidRegex() {
        assertThatThrownBy(() -> HeaderActions.regex("(", "")).hasMessage("regex '(' is invalid (error=missing closing parenthesis, erroffset=1)");
    }
}
