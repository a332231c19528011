package io.fulcrum.stats;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The stats page's ways of writing values, and the colour of a server's row from its fields. */
class StatsHtmlTest {

    @Test
    void thousandsAreSpaced() {
        assertThat(StatsHtml.u2h(0)).isEqualTo("0");
        assertThat(StatsHtml.u2h(999)).isEqualTo("999");
        assertThat(StatsHtml.u2h(9985)).isEqualTo("<span class=\"rls\">9</span>985");
        assertThat(StatsHtml.u2h(1234567)).isEqualTo("<span class=\"rls\">1</span><span class=\"rls\">234</span>567");
        assertThat(StatsHtml.u2h(123456)).isEqualTo("<span class=\"rls\">123</span>456");
    }

    @Test
    void durationsInTwoUnits() {
        assertThat(StatsHtml.human(0L)).isEqualTo("0s");
        assertThat(StatsHtml.human(59L)).isEqualTo("59s");
        assertThat(StatsHtml.human(3600L)).isEqualTo("1h");
        assertThat(StatsHtml.human(3661L)).isEqualTo("1h1m");
        assertThat(StatsHtml.human(90061L)).isEqualTo("1d1h");
        assertThat(StatsHtml.human(-1L)).isEqualTo("?");
        assertThat(StatsHtml.human(null)).isEqualTo("?");
    }

    @Test
    void textIsEscaped() {
        assertThat(StatsHtml.html("a<b>&\"'")).isEqualTo("a&lt;b&gt;&amp;&quot;&#39;");
        assertThat(StatsHtml.html("plain")).isEqualTo("plain");
    }

    private static StatRow server(String status, long bck, long weight) {
        return new StatRow(ObjType.SERVER, 3, 1, null).put(StatField.STATUS, status).put(StatField.BCK, bck)
                .put(StatField.WEIGHT, weight);
    }

    @Test
    void rowColourFollowsTheServersState() {
        assertThat(StatsHtml.style(server("no check", 0, 1))).isEqualTo("active_no_check");
        assertThat(StatsHtml.style(server("no check", 1, 1))).isEqualTo("backup_no_check");
        assertThat(StatsHtml.style(server("MAINT", 0, 1))).isEqualTo("maintain");
        assertThat(StatsHtml.style(server("MAINT (via be/s1)", 1, 1))).isEqualTo("maintain");
        assertThat(StatsHtml.style(server("DOWN", 0, 1))).isEqualTo("active_down");
        assertThat(StatsHtml.style(server("DOWN (agent)", 0, 1))).isEqualTo("active_down");
        assertThat(StatsHtml.style(server("DOWN 1/2", 0, 1))).isEqualTo("active_going_up");
        assertThat(StatsHtml.style(server("DRAIN", 0, 0))).isEqualTo("active_draining");
        assertThat(StatsHtml.style(server("NOLB 1/3", 0, 1))).isEqualTo("backup_going_down".replace("backup", "active"));
        assertThat(StatsHtml.style(server("NOLB", 1, 1))).isEqualTo("backup_nolb");
        // checked and at full health: up, or draining without weight
        StatRow up = server("UP", 0, 1).put(StatField.CHKFAIL, 0).put(StatField.CHECK_HEALTH, 3).put(StatField.CHECK_RISE, 2)
                .put(StatField.CHECK_FALL, 2);
        assertThat(StatsHtml.style(up)).isEqualTo("active_up");
        assertThat(StatsHtml.style(up.put(StatField.WEIGHT, 0))).isEqualTo("active_draining");
        assertThat(StatsHtml.style(up.put(StatField.CHECK_HEALTH, 2))).as("a check failed: going down").isEqualTo("active_going_down");
    }
}
