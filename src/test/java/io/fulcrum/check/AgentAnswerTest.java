package io.fulcrum.check;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Agent lines read as haproxy 2.6 reads them (the words checked against its logs and stats). */
class AgentAnswerTest {
    @Test
    void aDescriptionStartsAtAWordBeginningWithAHash() {
        assertThat(AgentAnswer.parse("down #gone away").report(null)).isEqualTo("via agent : down (gone away)");
        assertThat(AgentAnswer.parse("fail,#  broken").report(null)).isEqualTo("via agent : fail (broken)");
        // '#' inside a word is part of an unknown word: no state at all
        assertThat(AgentAnswer.parse("down#gone away")).isEqualTo(new AgentAnswer(-1, null, null, null, "down#gone", ""));
    }

    @Test
    void theFirstUnknownWordIsReportedWithUpOrAStateWithoutDescription() {
        assertThat(AgentAnswer.parse("up junk more").report(null)).isEqualTo("via agent : up (junk)");
        assertThat(AgentAnswer.parse("stopped bye").report(null)).isEqualTo("via agent : stopped (bye)");
        assertThat(AgentAnswer.parse("down junk #why").report(null)).isEqualTo("via agent : down (why)");
        assertThat(AgentAnswer.parse("up #fine").report(null)).isEqualTo("via agent : up (fine)");
        assertThat(AgentAnswer.parse("drain 50% junk").report(null)).isEqualTo("agent reports an error : junk");
    }

    @Test
    void aWarningComesAfterTheUnknownWord() {
        assertThat(AgentAnswer.parse("up").report("Trailing garbage in maxconn string")).isEqualTo("via agent : up (Trailing garbage in maxconn string)");
        assertThat(AgentAnswer.parse("up x").report("Trailing garbage in maxconn string")).isEqualTo("via agent : up (x)");
        assertThat(AgentAnswer.parse("down #why").report("Trailing garbage in maxconn string")).isEqualTo("via agent : down (why)");
        assertThat(AgentAnswer.parse("maxconn:x").report("maxconn string empty or preceded by garbage"))
                .isEqualTo("agent warns : maxconn string empty or preceded by garbage");
        assertThat(AgentAnswer.parse("75%").report(null)).isNull();
    }

    @Test
    void weightsAdminStatesAndMaxconnAreNoState() {
        assertThat(AgentAnswer.parse("75% MaxConn:5")).isEqualTo(new AgentAnswer(75, null, null, "5", null, ""));
        assertThat(AgentAnswer.parse("drain 50% junk")).isEqualTo(new AgentAnswer(50, "drain", null, null, "junk", ""));
        assertThat(AgentAnswer.parse("READY\tUP, 50%")).isEqualTo(new AgentAnswer(50, "ready", "up", null, null, ""));
        assertThat(AgentAnswer.parse("12")).isEqualTo(new AgentAnswer(-1, null, null, null, "12", ""));
    }
}
