package io.fulcrum.rules;

import io.fulcrum.acl.AclParser;
import io.fulcrum.acl.AclTable;
import io.fulcrum.acl.Condition;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.Diagnostics;
import io.fulcrum.cfg.HaproxyKeywords;
import io.fulcrum.cfg.Module;
import io.fulcrum.cfg.Registry;
import io.fulcrum.cli.CliCommands;
import io.fulcrum.http.HttpErrorsTable;
import io.fulcrum.log.LogFormatParser;
import io.fulcrum.proxy.Capability;
import io.fulcrum.proxy.Mode;
import io.fulcrum.proxy.ProxyModule;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.proxy.ProxyTable;
import io.fulcrum.proxy.RuleOrder;
import io.fulcrum.rules.HttpActions.Phase;
import io.fulcrum.runtime.GlobalModule;
import io.fulcrum.sample.Stage;
import io.fulcrum.sample.StageSet;

import java.util.List;
import java.util.Set;

/**
 * The {@code http-request}, {@code http-response} and {@code http-after-response} keywords: each line
 * is an action, its arguments, and an optional condition.
 */
public final class RuleModule implements Module {
    /** The actions HAProxy marks final: a rule after one of them without condition never runs (a warning says so). */
    private static final Set<String> FINAL_ACTIONS = Set.of("allow", "deny", "tarpit", "auth", "redirect", "return");

    @Override
    public void register(Registry registry) {
        HttpActions actions = HttpActions.of(registry);
        AclParser acls = AclParser.of(registry);
        LogFormatParser formats = new LogFormatParser(acls.exprs());
        HeaderActions.register(actions);
        MessageActions.register(actions);
        ReplyActions.register(actions);
        VarActions.register(actions);
        FlowActions.register(actions);
        Services.register(actions, Services.of(registry));
        VarCommands.register(CliCommands.of(registry), acls.exprs(), formats);
        GlobalVars.register(registry.table(GlobalModule.KEYWORDS), acls.exprs(), formats);
        CaptureActions.register(actions);
        ConnectionActions.register(actions);
        LogFormatParser httpFormats = formats.forHttpRules(w -> {
            ConfigLine line = registry.parsingLine();
            if (line != null) {
                line.warn(w);
            }
        });
        for (Phase phase : Phase.values()) {
            registry.table(ProxyModule.KEYWORDS).add(phase.keyword(), Capability.RULES,
                    (p, l) -> parse(phase, p, l, actions, acls, httpFormats));
        }
        // The "redirect" directive: an http-request redirect that runs after the section's http-request rules.
        registry.table(ProxyModule.KEYWORDS).add("redirect", Capability.FRONTEND | Capability.BACKEND | Capability.STRICT,
                (p, l) -> redirect(p, l, actions, acls, httpFormats));
        registry.table(ProxyModule.KEYWORDS).add("http-error", Capability.ALL, (p, l) -> HttpErrorKeyword.parse(p, l, acls, httpFormats));
        registry.check(RuleModule::warnTcpMode);
        registry.check(RuleModule::checkExperimental);
        registry.check(RuleModule::resolveErrorReplies);
    }

    /** Looks up the {@code http-errors} sections that replies name ({@code errorfiles}), now that all are known. */
    private static void resolveErrorReplies(ConfigModel model, Diagnostics diag) {
        HttpErrorsTable sections = HttpErrorsTable.of(model);
        for (ProxySpec p : ProxyTable.of(model).proxies()) {
            HttpRules r = p.partOrNull(HttpRules.class);
            for (ReplyBuilder reply : r == null ? List.<ReplyBuilder>of() : r.errorReplies()) {
                reply.resolve(p, sections, diag);
            }
        }
    }

    /**
     * HTTP rules of a TCP proxy run only once it becomes HTTP (an HTTP backend, switch-mode http): said once per list,
     * as HAProxy does, unless the proxy has a switch-mode rule.
     */
    private static void warnTcpMode(ConfigModel model, Diagnostics diag) {
        for (ProxySpec p : ProxyTable.of(model).proxies()) {
            HttpRules r = p.partOrNull(HttpRules.class);
            if (r == null || p.mode != Mode.TCP || p.httpUpgrade) {
                continue;
            }
            for (Phase phase : Phase.values()) {
                if (!rulesOf(r, phase).isEmpty()) {
                    diag.configWarning("'" + phase.keyword() + "' rules ignored for " + p.describe() + " as they require HTTP mode.");
                }
            }
        }
    }

    private static void checkExperimental(ConfigModel model, Diagnostics diag) {
        if (GlobalModule.settings(model).experimental) {
            return;
        }
        for (ProxySpec p : ProxyTable.of(model).proxies()) {
            HttpRules r = p.partOrNull(HttpRules.class);
            for (HttpRules.Experimental e : r == null ? List.<HttpRules.Experimental>of() : r.experimental) {
                diag.parseAlert(e.source(), "'" + e.action() + "' action is experimental, must be allowed via a global "
                        + "'expose-experimental-directives'");
            }
        }
    }

    private static List<HttpRule> rulesOf(HttpRules rules, Phase phase) {
        return switch (phase) {
            case REQUEST -> rules.request;
            case RESPONSE -> rules.response;
            case AFTER_RESPONSE -> rules.afterResponse;
        };
    }

    private static void parse(Phase phase, ProxySpec p, ConfigLine l, HttpActions actions, AclParser acls, LogFormatParser formats)
            throws ConfigException {
        HttpRules rules = p.part(HttpRules.class, HttpRules::new);
        if (rules.closed.contains(phase)) {
            l.warnUnspaced("previous '" + phase.keyword() + "' action is final and has no condition attached, further entries are NOOP.");
        }
        String word = l.arg(1);
        int paren = word.indexOf('(');
        String keyword = paren < 0 ? word : word.substring(0, paren) + "(*)";
        String parameter = paren < 0 ? null : word.substring(paren + 1, word.endsWith(")") ? word.length() - 1 : word.length());
        HttpActions.Parser parser = actions.find(phase, keyword);
        String rule = phase.keyword() + " " + word;
        if (parser == null) {
            if (HaproxyKeywords.knows(phase.keyword(), paren < 0 ? word : word.substring(0, paren))) {
                throw new ConfigException("'" + phase.keyword() + " " + keyword.replace("(*)", "") + "' is an HAProxy action that Fulcrum does not support yet.");
            }
            throw ConfigException.unspaced("'" + phase.keyword() + "' expects " + actions.list(phase) + "but got '" + word + "'"
                    + (word.isEmpty() ? " (missing argument)." : "."));
        }
        StageSet where = where(phase, p);
        ActionArgs args = new ActionArgs(l, 2, parameter, phase, p, where, acls.exprs(), formats);
        HttpAction action;
        try {
            action = parser.parse(args);
        } catch (ConfigException e) {
            throw new ConfigException("error detected in " + p.describe() + " while parsing '" + rule + "' rule : " + e.getMessage() + ".");
        }
        int pos = args.position();
        if (l.has(pos) && !ActionArgs.isCondition(l.arg(pos))) {
            throw ConfigException.unspaced("'" + rule + "' expects either 'if' or 'unless' followed by a condition but found '"
                    + l.arg(pos) + "'.");
        }
        Condition cond;
        try {
            cond = acls.condition(l, pos, p.partOrNull(AclTable.class), where, null);
        } catch (ConfigException e) {
            // HAProxy's redirect action reads its condition itself, hence its own words.
            throw new ConfigException(keyword.equals("redirect")
                    ? "error detected in " + p.describe() + " while parsing '" + rule + "' rule : error in condition: " + e.getMessage() + "."
                    : "error detected while parsing an '" + rule + "' condition : " + e.getMessage() + ".");
        }
        rulesOf(rules, phase).add(new HttpRule(action, cond, l.source()));
        if (phase == Phase.REQUEST) {
            RuleOrder.placed(p, RuleOrder.Kind.HTTP_REQUEST, "http-request", l);
        }
        if (cond == null && FINAL_ACTIONS.contains(keyword)) {
            rules.closed.add(phase);
        } else {
            rules.closed.remove(phase);
        }
    }

    private static void redirect(ProxySpec p, ConfigLine l, HttpActions actions, AclParser acls, LogFormatParser formats)
            throws ConfigException {
        StageSet where = where(Phase.REQUEST, p);
        ActionArgs args = new ActionArgs(l, 1, null, Phase.REQUEST, p, where, acls.exprs(), formats);
        HttpAction action;
        try {
            action = actions.find(Phase.REQUEST, "redirect").parse(args);
        } catch (ConfigException e) {
            throw new ConfigException("error detected in " + p.describe() + " while parsing redirect rule : " + e.getMessage() + ".");
        }
        Condition cond;
        try {
            cond = acls.condition(l, args.position(), p.partOrNull(AclTable.class), where, null);
        } catch (ConfigException e) {
            throw new ConfigException("error detected in " + p.describe() + " while parsing redirect rule : error in condition: "
                    + e.getMessage() + ".");
        }
        p.part(HttpRules.class, HttpRules::new).redirects.add(new HttpRule(action, cond, l.source()));
        RuleOrder.placed(p, RuleOrder.Kind.REDIRECT, "redirect", l);
    }

    /** Where the rules of {@code phase} run in proxy {@code p}: its frontend side, its backend side, or both (listen). */
    static StageSet where(Phase phase, ProxySpec p) {
        return switch (phase) {
            case REQUEST -> p.kind().stages(Stage.FE_HRQ_HDR, Stage.BE_HRQ_HDR);
            case RESPONSE, AFTER_RESPONSE -> p.kind().stages(Stage.FE_HRS_HDR, Stage.BE_HRS_HDR);
        };
    }
}
