package io.fulcrum.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.BooleanSupplier;

import static io.fulcrum.it.TcpProxyKit.connect;
import static io.fulcrum.it.TcpProxyKit.freePort;
import static io.fulcrum.it.TcpProxyKit.readToEof;
import static io.fulcrum.it.TcpProxyKit.send;
import static io.fulcrum.it.TcpProxyKit.serve;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Email alerts ({@code mailers}, {@code email-alert}): a server taken down and up by its health checks is mailed to
 * every mailer of the section, over SMTP, byte for byte as HAProxy 2.6 sends it; the level filter; mailers that are
 * down or refuse the mail harm nothing. Passes against the real HAProxy too ({@code -Dit.proxy=haproxy}): the
 * transcripts are compared with the Date header and the check durations masked.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class EmailAlertIT {
    private static final String DOWN = "Server be/s1 is DOWN, reason: Layer4 connection problem, info: \"Connection refused\", "
            + "check duration: Nms. 0 active and 0 backup servers left. 0 sessions active, 0 requeued, 0 remaining in queue";
    private static final String UP = "Server be/s1 is UP, reason: Layer4 check passed, check duration: Nms. "
            + "1 active and 0 backup servers online. 0 sessions requeued, 0 total in queue";

    private static void await(BooleanSupplier cond, String what) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!cond.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(50);
        }
    }

    /** The conversation HAProxy holds for {@code message}, from HELO to QUIT. */
    private static String mail(String helo, String message) {
        return "HELO " + helo + "\r\nMAIL FROM:<lb@example.test>\r\nRCPT TO:<ops@example.test>\r\nDATA\r\n"
                + "From: lb@example.test\r\nTo: ops@example.test\r\nDate: DATE\r\nSubject: [HAProxy Alert] " + message + "\r\n\r\n"
                + message + "\r\n\r\n.\r\nQUIT\r\n";
    }

    /** {@code transcript} with its Date header (checked for strftime's "%a, %d %b %Y %T %z (%Z)") and durations masked. */
    private static String masked(String transcript) {
        assertThat(transcript).as("no mail came").isNotNull()
                .containsPattern("\r\nDate: [A-Z][a-z]{2}, \\d{2} [A-Z][a-z]{2} \\d{4} \\d{2}:\\d{2}:\\d{2} [+-]\\d{4} \\([^)]+\\)\r\n");
        return transcript.replaceFirst("\r\nDate: [^\r]*\r\n", "\r\nDate: DATE\r\n").replaceAll("check duration: \\d+ms", "check duration: Nms");
    }

    private static String config(String mailers, String alerts, int server, int fe) {
        return """
                mailers ops
                %s
                defaults
                    mode tcp
                    timeout connect 1s
                    timeout client 5s
                    timeout server 5s
                backend be
                    email-alert mailers ops
                    email-alert from lb@example.test
                    email-alert to ops@example.test
                %s
                    server s1 127.0.0.1:%d check inter 200 rise 1 fall 1
                frontend fe
                    bind 127.0.0.1:%d
                    default_backend be
                """.formatted(mailers, alerts, server, fe);
    }

    @Test
    void atLevelNoticeTheDownAndTheUpAreMailedToEveryMailer() throws Exception {
        int port = freePort();
        Origin origin = Origin.start(port, s -> send(s, "a"));
        try (SmtpSink m1 = SmtpSink.start(); SmtpSink m2 = SmtpSink.start()) {
            int fe = freePort();
            String mailers = "    mailer m1 127.0.0.1:%d\n    mailer m2 127.0.0.1:%d".formatted(m1.port(), m2.port());
            String alerts = "    email-alert level notice\n    email-alert myhostname lb1.example.test";
            try (FulcrumProcess p = serve(config(mailers, alerts, port, fe), fe)) {
                origin.close();
                assertThat(masked(m1.next(20))).isEqualTo(mail("lb1.example.test", DOWN));
                assertThat(masked(m2.next(20))).isEqualTo(mail("lb1.example.test", DOWN));
                origin = Origin.start(port, s -> send(s, "a"));
                assertThat(masked(m1.next(20))).isEqualTo(mail("lb1.example.test", UP));
                assertThat(masked(m2.next(20))).isEqualTo(mail("lb1.example.test", UP));
            }
        } finally {
            origin.close();
        }
    }

    @Test
    void byDefaultOnlyTheDownIsMailedAndFailingMailersHarmNothing() throws Exception {
        int port = freePort();
        Origin origin = Origin.start(port, s -> send(s, "a"));
        try (SmtpSink good = SmtpSink.start(); SmtpSink refusing = SmtpSink.answeringMailFrom("550 5.7.1 Sender refused")) {
            int fe = freePort();
            String mailers = "    mailer down 127.0.0.1:%d\n    mailer refusing 127.0.0.1:%d\n    mailer good 127.0.0.1:%d\n    timeout mail 1s"
                    .formatted(FulcrumProcess.refusedPort(), refusing.port(), good.port());
            try (FulcrumProcess p = serve(config(mailers, "", port, fe), fe)) {
                origin.close();
                String helo = "HELO [^\r]+\r\n";
                assertThat(masked(good.next(20))).matches(helo + java.util.regex.Pattern.quote(mail("x", DOWN).substring("HELO x\r\n".length())));
                // waits for "250 " until timeout mail, then gives up
                assertThat(refusing.next(20)).matches(helo + "MAIL FROM:<lb@example.test>\r\n");
                origin = Origin.start(port, s -> send(s, "a"));
                await(() -> p.stderr().contains("Server be/s1 is UP"), "the server up");
                try (Socket s = connect(fe)) {
                    assertThat(readToEof(s, 100)).isEqualTo("a");
                }
                assertThat(good.next(2)).as("the UP is a notice, above the default level alert").isNull();
            }
        } finally {
            origin.close();
        }
    }

    @Test
    void atLevelInfoTheCheckLinesAndTheDrainAreMailedNotTheMaintenance() throws Exception {
        int port = freePort();
        Origin origin = Origin.start(port, s -> send(s, "a"));
        Path admin = Files.createTempDirectory("fulcrum-mail").resolve("admin.sock");
        try (SmtpSink m = SmtpSink.start()) {
            int fe = freePort();
            String cfg = "global\n    stats socket " + admin + " level admin\n" + config("    mailer m 127.0.0.1:" + m.port(),
                    "    email-alert level info\n    email-alert myhostname lb1\n    option log-health-checks", port, fe);
            try (FulcrumProcess p = serve(cfg, fe)) {
                // the first check's line (the server starts UP with its health at the bottom of the range)
                assertThat(masked(m.next(20))).isEqualTo(mail("lb1", "Health check for server be/s1 succeeded, reason: Layer4 check passed, "
                        + "check duration: Nms, status: 1/1 UP"));
                CliClient.send(admin, "set server be/s1 state drain");
                assertThat(masked(m.next(20))).isEqualTo(mail("lb1", "Server be/s1 enters drain state. "
                        + "0 active and 0 backup servers online. 0 sessions requeued, 0 total in queue"));
                for (String state : new String[] {"ready", "maint", "ready"}) {
                    CliClient.send(admin, "set server be/s1 state " + state);
                    Thread.sleep(300);
                }
                origin.close();
                // the next mails: what the checks found, not the maintenance lines
                assertThat(masked(m.next(20))).isEqualTo(mail("lb1", "Health check for server be/s1 failed, reason: Layer4 connection "
                        + "problem, info: \"Connection refused\", check duration: Nms, status: 0/1 DOWN"));
                assertThat(masked(m.next(20))).isEqualTo(mail("lb1", DOWN.replace(", reason: Layer4 connection problem, info: "
                        + "\"Connection refused\", check duration: Nms", "")));
            }
        } finally {
            origin.close();
        }
    }
}
