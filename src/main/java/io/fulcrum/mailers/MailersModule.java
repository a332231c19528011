package io.fulcrum.mailers;

import io.fulcrum.cfg.Args;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.Diagnostics;
import io.fulcrum.cfg.Module;
import io.fulcrum.cfg.Registry;
import io.fulcrum.log.Syslog;
import io.fulcrum.proxy.Capability;
import io.fulcrum.proxy.ProxyModule;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.proxy.ProxyTable;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Email alerts (configuration.txt 3.6 and {@code email-alert} in 4.2): the {@code mailers} sections and the proxies'
 * {@code email-alert} settings, checked as HAProxy 2.6 checks them.
 */
public final class MailersModule implements Module {

    @Override
    public void register(Registry registry) {
        MailersConfig config = MailersConfig.of(registry);
        MailersSection.register(registry, config);
        registry.table(ProxyModule.KEYWORDS).add("email-alert", Capability.ALL, MailersModule::emailAlert);
        registry.check((model, diag) -> resolve(model, diag, config));
    }

    /** {@code email-alert from|to|mailers|myhostname|level <value>}. */
    private static void emailAlert(ProxySpec p, ConfigLine l) throws ConfigException {
        String what = l.arg(1);
        if (what.isEmpty()) {
            throw new ConfigException("missing argument after 'email-alert'.");
        }
        EmailAlert e = p.part(EmailAlert.class, EmailAlert::new);
        switch (what) {
            case "from" -> e.from = value(l, "<emailaddr>");
            case "to" -> e.to = value(l, "<emailaddr>");
            case "mailers" -> e.mailers = value(l, "<mailersect>");
            case "myhostname" -> e.myhostname = value(l, "<hostname>");
            case "level" -> {
                e.level = Syslog.level(l.arg(2));
                if (e.level < 0) {
                    throw new ConfigException("unknown log level '" + l.arg(2) + "' after 'email-alert level'.");
                }
                Args.noMoreThan(l, 2, "email-alert level");
            }
            default -> throw new ConfigException("email-alert: unknown argument '" + what + "'.");
        }
    }

    /** The value of an {@code email-alert} line; HAProxy takes a missing one as empty, Fulcrum refuses it. */
    private static String value(ConfigLine l, String what) throws ConfigException {
        String v = Args.required(l, 2, "email-alert " + l.arg(1), what + " as argument");
        Args.noMoreThan(l, 2, "email-alert " + l.arg(1));
        return v;
    }

    /**
     * Ties each proxy's alerts to its mailers section. As in HAProxy, alerts lacking a sender, a recipient or a
     * section are ignored with a warning, a section that does not exist is an error, and a section no proxy uses is
     * dropped with a warning.
     */
    private static void resolve(ConfigModel model, Diagnostics diag, MailersConfig config) {
        Set<String> used = new HashSet<>();
        for (ProxySpec p : ProxyTable.of(model).proxies()) {
            EmailAlert e = p.partOrNull(EmailAlert.class);
            if (e == null || p.disabled) {
                continue;
            }
            if (e.mailers == null || e.from == null || e.to == null) {
                diag.configWarning("'email-alert' will be ignored for " + p.kind().typeName() + " '" + p.name() + "' (the presence any of "
                        + "'email-alert from', 'email-alert level' 'email-alert mailers', 'email-alert myhostname', or 'email-alert to' "
                        + "requires each of 'email-alert from', 'email-alert mailers' and 'email-alert to' to be present).");
                continue;
            }
            e.section = config.sections.get(e.mailers);
            if (e.section == null) {
                diag.configAlert("Proxy '" + p.name() + "': unable to find mailers '" + e.mailers + "'.");
            }
            used.add(e.mailers);
        }
        // HAProxy frees the sections no proxy sends through, the last declared first, with this warning.
        List<String> names = new ArrayList<>(config.sections.keySet());
        for (String name : names.reversed()) {
            if (!used.contains(name)) {
                diag.configWarning("Removing incomplete section 'mailers " + name + "'.");
            }
        }
    }
}
