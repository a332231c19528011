package io.fulcrum.mailers;

import io.fulcrum.log.Hostname;
import io.fulcrum.log.Syslog;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.server.ServerEvents;

import java.util.List;

/**
 * A backend's server events, passed on to {@code inner} and mailed through every mailer of its section when their
 * level is within {@code email-alert level}. The levels are HAProxy 2.6's: a server going down is an alert, coming up,
 * stopping or entering drain a notice, a health or agent check's line ({@code option log-health-checks}) info; the
 * other events (maintenance, address changes) are not mailed.
 */
public final class EmailAlerts implements ServerEvents {
    private final ServerEvents inner;
    private final int level;
    private final List<SmtpQueue> queues;

    private EmailAlerts(ServerEvents inner, EmailAlert e) {
        this.inner = inner;
        this.level = e.level;
        String helo = e.myhostname != null ? e.myhostname : Hostname.name();
        this.queues = e.section.mailers.stream().map(m -> new SmtpQueue(m, e.section.timeoutMs, helo, e.from, e.to)).toList();
    }

    /** {@code events} with the email alerts of {@code spec}, or {@code events} itself when it sends none. */
    public static ServerEvents around(ProxySpec spec, ServerEvents events) {
        EmailAlert e = spec.partOrNull(EmailAlert.class);
        return e == null || e.section == null || e.section.mailers.isEmpty() ? events : new EmailAlerts(events, e);
    }

    @Override
    public void notice(String text) {
        inner.notice(text);
        if (text.startsWith("Health check for ") || text.startsWith("Agent check for ")) {
            mail(Syslog.INFO, text);
        } else if (changeOfState(text) || aboutServer(text) && text.contains(" enters drain state")) {
            mail(Syslog.NOTICE, text);
        }
    }

    @Override
    public void alert(String text) {
        inner.alert(text);
        if (changeOfState(text)) {
            mail(Syslog.ALERT, text);
        }
    }

    @Override
    public void noServerLeft(String backend) {
        inner.noServerLeft(backend);
    }

    @Override
    public void responseAlert(String text) {
        inner.responseAlert(text);
    }

    /**
     * A server's operational change (UP, DOWN, stopping) found by its checks or set from the CLI; HAProxy mails none
     * of the maintenance lines ("is going DOWN for maintenance", "is UP (leaving forced drain)"...).
     */
    private static boolean changeOfState(String text) {
        return aboutServer(text) && !text.contains(" (leaving ")
                && (text.contains(" is UP") || text.contains(" is DOWN") || text.contains(" is stopping"));
    }

    /** A line on one server's state: "Server be/s1 ...", or "Backup Server be/b1 ..." for a backup server. */
    private static boolean aboutServer(String text) {
        return text.startsWith("Server ") || text.startsWith("Backup Server ");
    }

    /** Queues the message for each mailer; HAProxy's text drops the line's final period. */
    private void mail(int severity, String text) {
        if (severity > level) {
            return;
        }
        String message = text.endsWith(".") ? text.substring(0, text.length() - 1) : text;
        for (SmtpQueue q : queues) {
            q.send(message);
        }
    }
}
