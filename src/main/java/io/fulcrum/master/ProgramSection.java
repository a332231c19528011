package io.fulcrum.master;

import io.fulcrum.cfg.Args;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.Diagnostics;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.cfg.Registry;
import io.fulcrum.cfg.Registry.TableKey;
import io.fulcrum.cfg.SectionParser;
import io.fulcrum.runtime.GlobalModule;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.nio.file.attribute.UserPrincipalNotFoundException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code program <name>} sections (configuration.txt 3.7): {@code command}, {@code user}, {@code group},
 * {@code [no] option start-on-reload}, with HAProxy 2.6's messages. {@link Master} runs them.
 */
final class ProgramSection {
    static final TableKey<ProgramSpec> KEYWORDS = new TableKey<>("program");

    private ProgramSection() {
    }

    static void register(Registry registry) {
        KeywordTable<ProgramSpec> keywords = registry.table(KEYWORDS);
        keywords.add("command", ProgramSection::command);
        keywords.add("user", (p, l) -> {
            if (p.user != null) {
                l.alertNotCounted("user/uid already specified. Continuing.");
                return;
            }
            p.user = account(l, "user", "a user name", "user");
        });
        keywords.add("group", (p, l) -> {
            if (p.group != null) {
                l.alertNotCounted("group/gid already specified. Continuing.");
                return;
            }
            p.group = account(l, "group", "a group name", "group");
        });
        keywords.add("option", ProgramSection::option);
        keywords.add("no", (p, l) -> {
            if (!l.arg(1).equals("option")) {
                throw ConfigException.unspaced(GlobalModule.NEGATION_REFUSED);
            }
            option(p, l);
        });
        registry.section("program", (header, model) -> open(header, model, keywords));
        registry.check(ProgramSection::check);
    }

    private static SectionParser open(ConfigLine header, ConfigModel model, KeywordTable<ProgramSpec> keywords) throws ConfigException {
        String name = header.arg(1);
        if (name.isEmpty()) {
            throw new ConfigException("'program' expects an <id> argument");
        }
        Args.noMoreThan(header, 1, "program");
        Map<String, ProgramSpec> programs = MasterSettings.of(model).programs;
        if (programs.containsKey(name)) {
            throw ConfigException.unspaced("'" + name + "' program section already exists in the configuration.");
        }
        ProgramSpec spec = new ProgramSpec(name, header.source());
        programs.put(name, spec);
        return line -> {
            KeywordTable.Entry<ProgramSpec> e = keywords.find(line.keyword());
            if (e == null) {
                throw keywords.unknown(line.keyword(), "unknown keyword '" + line.keyword() + "' in 'program' section");
            }
            e.parser().parse(spec, line);
        };
    }

    /** {@code command <command> [arguments*]}: the last one given counts, as in HAProxy. */
    private static void command(ProgramSpec p, ConfigLine l) throws ConfigException {
        if (!l.has(1)) {
            throw ConfigException.unspaced("'command' expects a command with optional arguments separated in words.");
        }
        List<String> words = new ArrayList<>();
        for (int i = 1; i < l.size(); i++) {
            words.add(l.arg(i));
        }
        p.command = List.copyOf(words);
    }

    /** {@code [no] option start-on-reload}, the section's only option. */
    private static void option(ProgramSpec p, ConfigLine l) throws ConfigException {
        boolean negated = l.keyword().equals("no");
        ConfigLine o = negated ? l.shift(1) : l;
        if (!o.arg(1).equals("start-on-reload")) {
            throw new ConfigException("unknown option '" + o.arg(1) + "'.");
        }
        Args.noMoreThan(o, 1, "option start-on-reload");
        p.startOnReload = !negated;
    }

    /** A {@code user} or {@code group} name that the system knows (HAProxy looks it up when it reads the line). */
    private static String account(ConfigLine l, String keyword, String what, String kind) throws ConfigException {
        if (!l.has(1)) {
            throw ConfigException.unspaced("'" + keyword + "' expects " + what + ".");
        }
        Args.noMoreThan(l, 1, keyword);
        String name = l.arg(1);
        UserPrincipalLookupService lookup = FileSystems.getDefault().getUserPrincipalLookupService();
        try {
            if (kind.equals("user")) {
                lookup.lookupPrincipalByName(name);
            } else {
                lookup.lookupPrincipalByGroupName(name);
            }
        } catch (UserPrincipalNotFoundException e) {
            throw new ConfigException("cannot find " + kind + " id for '" + name + "' (0:Success)");
        } catch (IOException e) {
            throw new ConfigException("cannot find " + kind + " id for '" + name + "' (" + e.getMessage() + ")");
        }
        return name;
    }

    /** Every program has a command; they all see the environment the configuration ends with. */
    private static void check(ConfigModel model, Diagnostics diag) {
        MasterSettings settings = MasterSettings.of(model);
        for (ProgramSpec p : settings.programs.values()) {
            if (p.command.isEmpty()) {
                diag.configAlert("The program section '" + p.name + "' lacks a command to launch.");
            }
        }
        settings.environment = Map.copyOf(model.env().asMap());
    }
}
