package io.fulcrum.http;

import io.fulcrum.cfg.Args;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.Diagnostics;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.cfg.Module;
import io.fulcrum.cfg.Registry;
import io.fulcrum.cfg.Registry.TableKey;
import io.fulcrum.cfg.SectionParser;
import io.fulcrum.proxy.Capability;
import io.fulcrum.proxy.ProxyModule;
import io.fulcrum.proxy.ProxySpec;
import io.fulcrum.proxy.ProxyTable;

import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Custom error responses: the {@code http-errors} section and the proxy keywords {@code errorfile},
 * {@code errorfiles}, {@code errorloc}, {@code errorloc302} and {@code errorloc303}, with HAProxy 2.6's
 * messages. HAProxy accepts them in every proxy, whatever its mode. The files are read while parsing;
 * {@code errorfiles} imports are resolved once all sections are known.
 */
public final class HttpErrorsModule implements Module {

    /** The keywords of an {@code http-errors} section. */
    static final TableKey<HttpErrorsTable.Section> SECTION_KEYWORDS = new TableKey<>("http-errors");

    @Override
    public void register(Registry registry) {
        KeywordTable<ProxySpec> keywords = registry.table(ProxyModule.KEYWORDS);
        keywords.add("errorfile", Capability.ALL, (p, l) -> {
            if (l.arg(1).isEmpty() || l.arg(2).isEmpty()) {
                throw new ConfigException("errorfile : expects <status_code> and <file> as arguments.");
            }
            errors(p).add(status(l, 1), file(l));
        });
        keywords.add("errorloc", Capability.ALL, (p, l) -> errorloc(p, l, 302));
        keywords.add("errorloc302", Capability.ALL, (p, l) -> errorloc(p, l, 302));
        keywords.add("errorloc303", Capability.ALL, (p, l) -> errorloc(p, l, 303));
        keywords.add("errorfiles", Capability.ALL, (p, l) -> {
            String name = l.arg(1);
            if (name.isEmpty()) {
                throw new ConfigException("errorfiles : expects <name> as argument.");
            }
            SortedSet<Integer> statuses = new TreeSet<>();
            for (int i = 2; l.has(i); i++) {
                statuses.add(status(l, i));
            }
            errors(p).importSection(name, statuses, l.source());
        });

        KeywordTable<HttpErrorsTable.Section> sectionKeywords = registry.table(SECTION_KEYWORDS);
        sectionKeywords.add("errorfile", (s, l) -> {
            if (l.arg(1).isEmpty() || l.arg(2).isEmpty()) {
                throw new ConfigException("errorfile: expects <status_code> and <file> as arguments.");
            }
            s.messages.put(status(l, 1), file(l));
        });
        registry.section("http-errors", (header, model) -> open(header, model, sectionKeywords));
        registry.check(HttpErrorsModule::resolve);
    }

    private static ErrorSet errors(ProxySpec p) {
        return ErrorSet.own(p);
    }

    private static void errorloc(ProxySpec p, ConfigLine l, int code) throws ConfigException {
        if (l.arg(1).isEmpty() || l.arg(2).isEmpty()) {
            throw new ConfigException(l.keyword() + " : expects <status_code> and <url> as arguments.");
        }
        Args.noMoreThan(l, 2, l.keyword());
        int status = status(l, 1);
        try {
            errors(p).add(status, ErrorMessageReader.redirect(code, l.arg(2)));
        } catch (ConfigException e) {
            throw new ConfigException(l.keyword() + " : " + e.getMessage());
        }
    }

    /** The file of an {@code errorfile} line ({@code <code> <file>}). */
    private static ErrorMessage file(ConfigLine l) throws ConfigException {
        Args.noMoreThan(l, 2, l.keyword());
        try {
            return ErrorMessageReader.file(l.source(), l.arg(2));
        } catch (ConfigException e) {
            throw new ConfigException(l.keyword() + " : " + e.getMessage());
        }
    }

    /**
     * A status code HAProxy has a page for. HAProxy reads the word with atol(), so that "403x" is 403
     * and "abc" is 0; Fulcrum wants digits only and names the word as written.
     */
    private static int status(ConfigLine l, int index) throws ConfigException {
        String text = l.arg(index);
        if (!text.isEmpty() && text.length() < 10 && text.chars().allMatch(c -> c >= '0' && c <= '9')
                && ErrorPages.hasBuiltin(Integer.parseInt(text))) {
            return Integer.parseInt(text);
        }
        throw new ConfigException(l.keyword() + " : status code '" + text + "' not handled.");
    }

    private static SectionParser open(ConfigLine header, ConfigModel model,
                                      KeywordTable<HttpErrorsTable.Section> keywords) throws ConfigException {
        String name = header.arg(1);
        if (name.isEmpty()) {
            throw new ConfigException("missing name for http-errors section.");
        }
        for (char c : name.toCharArray()) {
            if (!(Character.isLetterOrDigit(c) && c < 128 || c == '-' || c == '_' || c == '.' || c == ':')) {
                throw new ConfigException("character '" + c + "' is not permitted in 'http-errors' name '" + name + "'.");
            }
        }
        Args.noMoreThan(header, 1, "http-errors");
        HttpErrorsTable.Section section = HttpErrorsTable.of(model).add(name, header.source());
        return line -> {
            KeywordTable.Entry<HttpErrorsTable.Section> e = keywords.find(line.keyword());
            if (e == null) {
                throw keywords.unknown(line.keyword(), "unknown keyword '" + line.keyword() + "' in 'http-errors' section");
            }
            e.parser().parse(section, line);
        };
    }

    /** Resolves the {@code errorfiles} imports of every proxy, in declaration order as HAProxy does. */
    private static void resolve(ConfigModel model, Diagnostics diag) {
        HttpErrorsTable sections = HttpErrorsTable.of(model);
        for (ProxySpec p : ProxyTable.of(model).proxies()) {
            ErrorSet set = p.partOrNull(ErrorSet.class);
            if (set != null) {
                set.resolve(p, sections, diag);
            }
        }
    }
}
