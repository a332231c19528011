package io.fulcrum.check;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Agent lines read as haproxy 2.6 reads them (the words checked against its logs and stats). */
class AgentAnswerTest {
    @Test
    void aDescriptionStartsAtAWordBeginningWithAHash() {
        assertThat(AgentAnswer.parse("down #gone away")).isEqualTo(new AgentAnswer(-1, null, "down", "down (gone away)"));
        assertThat(AgentAnswer.parse("fail,#  broken")).isEqualTo(new AgentAnswer(-1, null, "fail", "fail (broken)"));
        // '#' inside a word is part of an unknown word: no state at all
        assertThat(AgentAnswer.parse("down#gone away")).isEqualTo(new AgentAnswer(-1, null, null, null));
    }

    @Test
    void theFirstUnknownWordIsReportedWithUpOrAStateWithoutDescription() {
        assertThat(AgentAnswer.parse("up junk more")).isEqualTo(new AgentAnswer(-1, null, "up", "up (junk)"));
        assertThat(AgentAnswer.parse("stopped bye")).isEqualTo(new AgentAnswer(-1, null, "stopped", "stopped (bye)"));
        assertThat(AgentAnswer.parse("down junk #why")).isEqualTo(new AgentAnswer(-1, null, "down", "down (why)"));
        assertThat(AgentAnswer.parse("up #fine")).isEqualTo(new AgentAnswer(-1, null, "up", "up (fine)"));
    }

    @Test
    void weightsAdminStatesAndMaxconnAreNoState() {
        assertThat(AgentAnswer.parse("75% maxconn:5")).isEqualTo(new AgentAnswer(75, null, null, null));
        assertThat(AgentAnswer.parse("drain 50% junk")).isEqualTo(new AgentAnswer(50, "drain", null, null));
        assertThat(AgentAnswer.parse("READY\tUP, 50%")).isEqualTo(new AgentAnswer(50, "ready", "up", "up"));
        assertThat(AgentAnswer.parse("12")).isEqualTo(new AgentAnswer(-1, null, null, null));
    }
}
