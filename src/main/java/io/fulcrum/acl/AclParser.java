package io.fulcrum.acl;

import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.Registry;
import io.fulcrum.cfg.Source;
import io.fulcrum.sample.ArgResolution;
import io.fulcrum.sample.Expr;
import io.fulcrum.sample.ExprParser;
import io.fulcrum.sample.SampleCatalog;
import io.fulcrum.sample.SampleType;
import io.fulcrum.sample.Stage;
import io.fulcrum.sample.StageSet;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Parses ACL lines ({@code acl <name> <criterion> [flags] [operator] [<value>] ...}), anonymous ACLs and
 * {@code if}/{@code unless} conditions, with HAProxy's flags, derived keywords ({@code path_beg},
 * {@code hdr_sub(host)}...), predefined ACLs and messages.
 */
public final class AclParser {
    private static final Set<String> DERIVED_METHODS = Set.of("beg", "dir", "dom", "end", "len", "reg", "sub");
    /**
     * The fetches that have "_beg", "_sub"... derivatives selecting the matching method, with those they have: HAProxy
     * 2.6's (-dKacl), so req.hdr_beg or url_param_beg are unknown fetches there too.
     */
    private static final Map<String, Set<String>> DERIVABLE = Map.of("base", DERIVED_METHODS, "cook", DERIVED_METHODS,
            "hdr", DERIVED_METHODS, "path", DERIVED_METHODS, "scook", DERIVED_METHODS, "shdr", DERIVED_METHODS, "url", DERIVED_METHODS,
            "urlp", DERIVED_METHODS, "ssl_fc_sni", Set.of("end", "reg"));

    /**
     * HAProxy 2.6's ACL keywords that are not derived ones (-dKacl): their arguments and converters are parsed by the
     * ACL code, whose messages name the keyword ("ACL keyword 'hdr' : unknown converter 'x'.").
     */
    private static final Set<String> ACL_KEYWORDS = Set.of("base", "cook", "hdr", "http_auth_group", "method", "path", "payload",
            "payload_lv", "req.ssl_ver", "req_rdp_cookie", "req_rdp_cookie_cnt", "req_ssl_sni", "req_ssl_ver", "req_ver", "resp_ver",
            "scook", "shdr", "url", "urlp");
    /**
     * HAProxy 2.6's ACL keywords that name another fetch (with its default matching method): some are no fetch
     * themselves, and the ACL "hdr" (and its derivatives: hdr_beg...) is req.hdr where the fetch hdr reads the
     * message being processed (so that it never matches in an http-response rule).
     */
    private static final Map<String, String> ALIASES = Map.of("req_rdp_cookie", "req.rdp_cookie", "req_rdp_cookie_cnt", "req.rdp_cookie_cnt",
            "hdr", "req.hdr");

    /** The stages of the rules on a response (http-response, http-after-response). */
    private static final int HTTP_RESPONSE = Stage.FE_HRS_HDR.bit() | Stage.BE_HRS_HDR.bit() | Stage.FE_HRS_BDY.bit() | Stage.BE_HRS_BDY.bit();

    private final SampleCatalog catalog;
    private final ExprParser exprs;
    private final ExprParser criteria;
    private final PatternFiles files;
    private final Map<String, Acl> predefined = new HashMap<>();
    /** Where the conditions parsed are noted for the configuration's checks, or null. */
    private final BufferConditions noted;

    private AclParser(SampleCatalog catalog, PatternFiles files, ExprParser exprs, ExprParser criteria, BufferConditions noted) {
        this.catalog = catalog;
        this.exprs = exprs;
        this.criteria = criteria;
        this.files = files;
        this.noted = noted;
    }

    /** A parser whose proxy and server names are looked up when the expressions run only. */
    public AclParser(SampleCatalog catalog, PatternFiles files) {
        this(catalog, files, new ExprParser(catalog), new ExprParser(catalog), null);
    }

    public AclParser(SampleCatalog catalog) {
        this(catalog, new PatternFiles());
    }

    /**
     * The registry's ACL parser, over its sample catalog and its pattern files; the proxy and server names of its
     * expressions are resolved once every proxy is known.
     */
    public static AclParser of(Registry registry) {
        return registry.component(AclParser.class, () -> {
            SampleCatalog catalog = SampleCatalog.of(registry);
            ArgResolution resolution = ArgResolution.of(registry);
            return new AclParser(catalog, PatternFiles.of(registry), new ExprParser(catalog, resolution.sink(false)),
                    new ExprParser(catalog, resolution.sink(true)), BufferConditions.of(registry));
        });
    }

    /** The parser of the sample expressions in ACLs, for rules that take expressions too. */
    public ExprParser exprs() {
        return exprs;
    }

    /** An {@code acl} line of a proxy section: adds a line to the named ACL. */
    public void declare(AclTable table, ConfigLine line) throws ConfigException {
        String name = line.arg(1);
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(Character.isLetterOrDigit(c) && c < 128 || c == '-' || c == '_' || c == '.' || c == ':')) {
                throw new ConfigException("character '" + c + "' is not permitted in acl name '" + name + "'.");
            }
        }
        if (name.isEmpty()) {
            throw new ConfigException("'acl' expects an ACL name.");
        }
        List<String> words = words(line, 2, line.size());
        try {
            table.declare(name).add(term(words, line));
        } catch (ConfigException e) {
            throw new ConfigException("error detected while parsing ACL '" + name + "' : " + e.getMessage() + ".");
        }
    }

    /**
     * The condition starting at word {@code from} ("if" or "unless"), or null when the line ends before
     * it. Other words there are an error naming {@code rule}.
     *
     * @param stage where the rule runs, for the warning about ACLs that can never match there; null for none
     */
    public Condition condition(ConfigLine line, int from, AclTable table, Stage stage) throws ConfigException {
        return condition(line, from, table, stage == null ? null : StageSet.of(stage), null);
    }

    /**
     * As {@link #condition(ConfigLine, int, AclTable, Stage)}, for a rule that runs at any of the stages {@code where}.
     *
     * @param ruleSet the rule set its warnings name ("tcp-request content", as HAProxy's tcp rules say), or null
     */
    public Condition condition(ConfigLine line, int from, AclTable table, StageSet where, String ruleSet) throws ConfigException {
        if (!line.has(from)) {
            return null;
        }
        String kw = line.arg(from);
        if (!kw.equals("if") && !kw.equals("unless")) {
            throw new ConfigException("expects 'if' or 'unless' followed by a condition but found '" + kw + "'");
        }
        List<List<Condition.Term>> alternatives = new ArrayList<>();
        List<Condition.Term> suite = new ArrayList<>();
        boolean negate = false;
        for (int i = from + 1; i < line.size(); i++) {
            String w = line.arg(i);
            if (w.equals("||") || w.equals("or")) {
                if (!suite.isEmpty()) {
                    alternatives.add(suite);
                }
                suite = new ArrayList<>();
                continue;
            }
            if (w.equals("!")) {
                negate = !negate;
                continue;
            }
            if (w.startsWith("!")) {
                // "!name" and "!{" negate what follows, as a separate "!" does.
                negate = !negate;
                w = w.substring(1);
            }
            Acl acl;
            if (w.equals("{")) {
                int end = i + 1;
                while (end < line.size() && !line.arg(end).equals("}")) {
                    end++;
                }
                if (end == line.size()) {
                    throw new ConfigException("missing closing '}' in condition");
                }
                acl = new Acl("");
                acl.add(term(words(line, i + 1, end), line));
                i = end;
            } else {
                acl = find(table, w);
            }
            suite.add(new Condition.Term(acl, negate));
            negate = false;
        }
        if (!suite.isEmpty()) {
            alternatives.add(suite);
        }
        Condition c = new Condition(kw.equals("unless"), alternatives);
        if (noted != null) {
            noted.parsed(c); // (as written: HAProxy's warning on L6 fetches counts those that never match too)
        }
        if (where != null) {
            warnConflicts(line, alternatives, where, ruleSet);
            if ((where.bits() & ~HTTP_RESPONSE) == 0) {
                // HAProxy has forwarded the request by then, its fields and start line gone from its buffer: an
                // ACL's line reading them (req.hdr, path...) never matches, as its warning says; Fulcrum keeps them.
                c = new Condition(kw.equals("unless"), alternatives.stream()
                        .map(s -> s.stream().map(t -> new Condition.Term(t.acl().within(where), t.negated())).toList()).toList());
            }
        }
        return c;
    }

    /**
     * HAProxy's one warning about a condition's ACLs that cannot work where the rule runs: the first ACL none of
     * whose keywords is usable there (it never matches), else the first ACL with such a keyword.
     */
    private static void warnConflicts(ConfigLine line, List<List<Condition.Term>> alternatives, StageSet where, String ruleSet) {
        String in = ruleSet == null ? "" : " in '" + ruleSet + "'";
        for (List<Condition.Term> suite : alternatives) {
            for (Condition.Term t : suite) {
                Acl acl = t.acl();
                if (!where.allows(acl.stages())) {
                    line.warn(acl.name().isEmpty()
                            ? "anonymous acl will never match" + in + " because it uses keyword '" + acl.keyword()
                                    + "' which is incompatible with '" + where + "'"
                            : "acl '" + acl.name() + "' will never match" + in
                                    + " because it only involves keywords that are incompatible with '" + where + "'");
                    return;
                }
            }
        }
        for (List<Condition.Term> suite : alternatives) {
            for (Condition.Term t : suite) {
                String kw = t.acl().keywordOutside(where);
                if (kw != null) {
                    // (HAProxy's plural for a named ACL of an HTTP rule, its singular in tcp rules)
                    line.warn((t.acl().name().isEmpty() ? "anonymous acl involves keyword '"
                            : "acl '" + t.acl().name() + "' involves keyword" + (ruleSet == null ? "s" : "") + " '")
                            + kw + "' which is incompatible with '" + where + "'");
                    return;
                }
            }
        }
    }

    private Acl find(AclTable table, String name) throws ConfigException {
        Acl acl = table == null ? null : table.get(name);
        if (acl == null) {
            acl = predefined(name);
        }
        if (acl == null) {
            throw new ConfigException("no such ACL : '" + name + "'");
        }
        return acl;
    }

    private static List<String> words(ConfigLine line, int from, int to) {
        List<String> w = new ArrayList<>();
        for (int i = from; i < to; i++) {
            w.add(line.arg(i));
        }
        return w;
    }

    /** Parses "criterion [flags] [operator] [values]". */
    AclTerm term(List<String> words, ConfigLine line) throws ConfigException {
        String criterion = words.isEmpty() ? "" : words.get(0);
        MatchMethod method = null;
        Expr expr;
        try {
            String derived = derived(criterion);
            if (derived != null) {
                int us = criterion.indexOf('(') < 0 ? criterion.length() : criterion.indexOf('(');
                String kw = criterion.substring(0, us);
                method = MatchMethod.of(kw.substring(kw.lastIndexOf('_') + 1));
                expr = criteria.parse(ALIASES.getOrDefault(derived, derived) + criterion.substring(us));
            } else {
                String kw = keyword(criterion);
                expr = criteria.parse(ALIASES.containsKey(kw) ? ALIASES.get(kw) + criterion.substring(kw.length()) : criterion);
            }
        } catch (ConfigException e) {
            if (!aclKeyword(criterion)) {
                throw new ConfigException(e.getMessage() + " in ACL expression '" + criterion + "'");
            }
            // HAProxy's words for an ACL keyword: its converters' errors end with a dot of their own, its arguments' do not
            String kw = keyword(criterion);
            String derived = derived(kw);
            String base = ALIASES.getOrDefault(derived == null ? kw : derived, derived);
            String fetchArgs = "fetch method '" + (base == null ? kw : base) + "' : ";
            String m = e.getMessage();
            throw new ConfigException("ACL keyword '" + kw + "' : " + (m.startsWith(fetchArgs) ? m.substring(fetchArgs.length()) : m + "."));
        }
        boolean icase = false;
        boolean mapFile = false;
        int uniqueId = -1;
        Source where = line == null ? null : line.source();
        List<PatternFile.View<PatternIndex>> views = new ArrayList<>();
        int i = 1;
        for (; i < words.size() && words.get(i).startsWith("-"); i++) {
            String f = words.get(i);
            switch (f) {
                case "-i" -> icase = true;
                case "-n" -> { } // no DNS resolution: Fulcrum never resolves patterns
                case "-M" -> mapFile = true;
                case "-u" -> uniqueId = uniqueId(i + 1 < words.size() ? words.get(++i) : "");
                case "-f" -> {
                    // Each file is read (and listed by "show acl") where its flag stands, as in HAProxy.
                    String name = i + 1 < words.size() ? words.get(++i) : "";
                    MatchMethod m = method != null ? method : defaultMethod(expr, criterion);
                    boolean dottedFile = method == null && DottedVersion.KEYWORDS.contains(criterion);
                    views.add(new AclUse(m, icase, dottedFile).view(files.load(name, mapFile, false, where)));
                }
                case "-m" -> {
                    if (!views.isEmpty()) {
                        throw new ConfigException("'-m' must only be specified before patterns and files to parse");
                    }
                    String m = i + 1 < words.size() ? words.get(++i) : "";
                    method = MatchMethod.of(m);
                    if (method == null) {
                        throw new ConfigException("unknown matching method '" + m + "' when parsing ACL expression");
                    }
                }
                case "--" -> { } // ends the flags, below
                default -> throw new ConfigException("'" + f + "' is not a valid ACL option. Please use '--' before any pattern beginning with a '-'");
            }
            if (f.equals("--")) {
                i++;
                break;
            }
        }
        boolean dotted = method == null && DottedVersion.KEYWORDS.contains(criterion);
        if (method == null) {
            method = defaultMethod(expr, criterion);
        }
        // The patterns of the line form a set of their own, which the CLI can change too.
        String keyword = criterion.replaceFirst("\\(.*", "");
        PatternFile own = line == null ? PatternFile.anonymous("", -1) : files.anonymous(keyword, where, uniqueId);
        views.add(new AclUse(method, icase).view(own));
        List<String[]> patterns = new ArrayList<>();
        String operator = null;
        for (; i < words.size(); i++) {
            String w = words.get(i);
            if ((method == MatchMethod.INT || method == MatchMethod.LEN) && IntRange.isOperator(w)) {
                operator = w;
                continue;
            }
            patterns.add(new String[] {IntRange.withOperator(dotted ? DottedVersion.range(w) : w, operator), null});
        }
        own.add(0, patterns);
        // As HAProxy: only when nothing follows the criterion (no flag either) and its own method takes patterns
        if (words.size() == 1 && !method.patternless() && line != null && line.diag() != null) {
            line.diag().configWarning("parsing acl keyword '" + criterion + "' :\n"
                    + "  no pattern to match against were provided, so this ACL will never match.\n"
                    + "  If this is what you intended, please add '--' to get rid of this warning.\n"
                    + "  If you intended to match only for existence, please use '-m found'.\n"
                    + "  If you wanted to force an int to match as a bool, please use '-m bool'.\n");
        }
        return new AclTerm(keyword, expr, method, AclUse.matcher(method, views));
    }

    /**
     * The method of an ACL without "-m", from the type of its expression. As in HAProxy, only the "method"
     * ACL keyword has one for a method (its own), only "payload" and "payload_lv" one for binary data
     * ({@code req.payload(0,1) 41}, {@code str(a),sha1 00} need "-m bin"), and none has one for a value of any type (var()).
     */
    private static MatchMethod defaultMethod(Expr expr, String criterion) throws ConfigException {
        SampleType type = expr.outType();
        if (type == SampleType.METH && criterion.equals("method")) {
            return MatchMethod.METH;
        }
        boolean binKeyword = keyword(criterion).equals("payload") || keyword(criterion).equals("payload_lv");
        if (type == SampleType.METH || type == SampleType.ANY || type == SampleType.BIN && !binKeyword) {
            throw new ConfigException("matching method must be specified first (using '-m') when using a sample fetch of this type ('"
                    + expr.fetch().name() + "')");
        }
        return MatchMethod.defaultFor(type);
    }

    /** The id that "-u" gives the line's patterns on the CLI. */
    private static int uniqueId(String word) throws ConfigException {
        try {
            int id = Integer.parseInt(word);
            if (id >= 0) {
                return id;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new ConfigException("the argument of -u must be a positive integer (got '" + word + "')");
    }

    /** A keyword that only ACLs know: a fetch with a matching method ({@code path_beg} is {@code path -m beg}). */
    public record Keyword(String name, String fetch, String method) {
    }

    /** The derived keywords ({@code path_beg}...), sorted by name: what HAProxy's {@code -dKacl} lists. */
    public List<Keyword> keywords() {
        List<Keyword> all = new ArrayList<>();
        for (String base : DERIVABLE.keySet()) {
            for (String method : DERIVABLE.get(base)) {
                if (derived(base + "_" + method) != null) {
                    all.add(new Keyword(base + "_" + method, base, method));
                }
            }
        }
        all.sort(java.util.Comparator.comparing(Keyword::name));
        return all;
    }

    /** The keyword of a criterion: its first word before any argument or converter. */
    private static String keyword(String criterion) {
        int end = criterion.length();
        for (char c : new char[] {'(', ','}) {
            int i = criterion.indexOf(c);
            end = i >= 0 ? Math.min(end, i) : end;
        }
        return criterion.substring(0, end);
    }

    /** Whether the criterion starts with one of HAProxy's ACL keywords (whose own code then words the errors). */
    private boolean aclKeyword(String criterion) {
        String kw = keyword(criterion);
        return ACL_KEYWORDS.contains(kw) || derived(kw) != null;
    }

    /** For a derived keyword ("hdr_beg(host)"), the base fetch ("hdr"); else null. */
    private String derived(String criterion) {
        int paren = criterion.indexOf('(');
        String kw = paren < 0 ? criterion : criterion.substring(0, paren);
        int us = kw.lastIndexOf('_');
        if (us < 0 || catalog.fetch(kw) != null) {
            return null;
        }
        String base = kw.substring(0, us);
        Set<String> methods = DERIVABLE.get(base);
        return methods != null && methods.contains(kw.substring(us + 1)) && catalog.fetch(base) != null ? base : null;
    }

    /** The predefined ACL {@code name} (TRUE, METH_GET, LOCALHOST...), or null. */
    private Acl predefined(String name) throws ConfigException {
        Acl acl = predefined.get(name);
        if (acl != null) {
            return acl;
        }
        String def = PredefinedAcls.definition(name);
        if (def == null) {
            return null;
        }
        acl = new Acl(name);
        try {
            acl.add(term(List.of(def.split(" ")), null));
        } catch (ConfigException e) {
            throw new ConfigException("predefined ACL '" + name + "' is not supported by Fulcrum yet");
        }
        predefined.put(name, acl);
        return acl;
    }
}
