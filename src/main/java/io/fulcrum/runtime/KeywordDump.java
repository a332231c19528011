package io.fulcrum.runtime;

import io.fulcrum.acl.AclParser;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.cfg.Registry;
import io.fulcrum.cli.CliCommands;
import io.fulcrum.compression.CompressionModule;
import io.fulcrum.listener.ListenerModule;
import io.fulcrum.proxy.Capability;
import io.fulcrum.proxy.ProxyKind;
import io.fulcrum.proxy.ProxyModule;
import io.fulcrum.rules.HttpActions;
import io.fulcrum.rules.Services;
import io.fulcrum.rules.TcpActions;
import io.fulcrum.sample.Converter;
import io.fulcrum.sample.Fetch;
import io.fulcrum.sample.SampleCatalog;
import io.fulcrum.sample.SampleType;
import io.fulcrum.sample.Stage;
import io.fulcrum.server.ServerModule;

import java.io.PrintStream;
import java.util.List;
import java.util.Set;

/**
 * {@code -dK<class>[,<class>...]}: the keywords Fulcrum registers, class by class, in the format of HAProxy's own
 * listing, so that the two can be compared line by line. Each list comes from the registry the configuration was
 * read with; what Fulcrum parses without a registry (the tcp rules' own actions, the master CLI's commands) is not
 * listed, as HAProxy does not list what it parses without one (docs/differences.md).
 */
public final class KeywordDump {
    private KeywordDump() {
    }

    /** Prints the classes of {@code list} in its order; an unknown class prints nothing, as in HAProxy 2.6. */
    public static void print(String list, Registry registry, PrintStream out) {
        for (String cls : list.split(",")) {
            if (cls.equals("help")) {
                out.print("""
                        # List of supported keyword classes:
                        all: list all keywords
                        acl: ACL keywords
                        cfg: configuration keywords
                        cli: CLI keywords
                        cnv: sample converter keywords
                        flt: filter names
                        smp: sample fetch functions
                        svc: service names
                        """);
                continue;
            }
            boolean all = cls.equals("all");
            if (all || cls.equals("acl")) {
                acl(registry, out);
            }
            if (all || cls.equals("cfg")) {
                cfg(registry, out);
            }
            if (all || cls.equals("cli")) {
                out.println("# List of registered CLI keywords:");
                CliCommands.of(registry).names().forEach(c -> out.println(c + " [WORKER] "));
            }
            if (all || cls.equals("cnv")) {
                converters(registry, out);
            }
            if (all || cls.equals("flt")) {
                out.println("# List of registered filter names:");
                CompressionModule.filters().forEach(out::println);
            }
            if (all || cls.equals("smp")) {
                fetches(registry, out);
            }
            if (all || cls.equals("svc")) {
                out.println("# List of registered service names:");
                Services.of(registry).names().forEach(out::println);
            }
        }
    }

    private static void acl(Registry registry, PrintStream out) {
        out.println("# List of registered ACL keywords:");
        for (AclParser.Keyword k : AclParser.of(registry).keywords()) {
            out.println(k.name() + " = " + k.fetch() + " -m " + k.method());
        }
    }

    /**
     * The configuration keywords by section: the global ones, the proxies' (under "listen", with their bind and server
     * options, "option"s and rule actions), then each other section's.
     */
    private static void cfg(Registry registry, PrintStream out) {
        out.println("# List of registered configuration keywords:");
        out.println("global");
        registry.table(GlobalModule.KEYWORDS).names().forEach(k -> out.println("\t" + k));
        out.println("listen");
        registry.table(ProxyModule.KEYWORDS).names().forEach(k -> out.println("\t" + k));
        withArgs(registry.table(ListenerModule.OPTIONS), "\tbind <addr> ", out);
        withArgs(registry.table(ServerModule.OPTIONS), "\tserver <name> <addr> ", out);
        KeywordTable<?> options = registry.table(ProxyModule.OPTIONS);
        for (String name : options.names()) {
            int caps = options.find(name).flags();
            out.println("\toption " + name + " [ " + ((caps & Capability.FRONTEND) != 0 ? "FE " : "")
                    + ((caps & Capability.BACKEND) != 0 ? "BE " : "") + "]");
        }
        TcpActions tcp = TcpActions.of(registry);
        for (String kind : List.of("connection", "session", "content")) {
            actions(tcp.keywords(false), "\ttcp-request " + kind + " ", out);
        }
        actions(tcp.keywords(true), "\ttcp-response content ", out);
        HttpActions http = HttpActions.of(registry);
        for (HttpActions.Phase phase : HttpActions.Phase.values()) {
            actions(http.keywords(phase), "\t" + phase.keyword() + " ", out);
        }
        // HAProxy's other sections first, in its order, then Fulcrum's others in their order of registration.
        List<String> sections = new java.util.ArrayList<>(List.of("userlist", "peers"));
        registry.sectionNames().stream().filter(s -> !sections.contains(s)).forEach(sections::add);
        for (String section : sections) {
            boolean proxy = List.of(ProxyKind.values()).stream().anyMatch(k -> k.keyword().equals(section));
            KeywordTable<?> table = registry.tables().get(new Registry.TableKey<>(section));
            if (!proxy && !section.equals("global") && table != null) {
                out.println(section);
                table.names().forEach(k -> out.println("\t" + k));
            }
        }
    }

    /** Bind or server options: with "+N" when they take N arguments, as HAProxy shows how many words they skip. */
    private static void withArgs(KeywordTable<?> table, String prefix, PrintStream out) {
        for (String name : table.names()) {
            int args = table.find(name).flags();
            out.println(prefix + name + (args > 0 ? " +" + args : ""));
        }
    }

    /** Rule actions; "set-var(*)", which takes its parameter in parentheses, is HAProxy's "set-var*" (a prefix). */
    private static void actions(Set<String> keywords, String prefix, PrintStream out) {
        keywords.forEach(k -> out.println(prefix + (k.endsWith("(*)") ? k.substring(0, k.length() - 3) + "*" : k)));
    }

    /** "name(args): out => in": HAProxy 2.6 writes the output type first. */
    private static void converters(Registry registry, PrintStream out) {
        out.println("# List of registered sample converter functions:");
        for (Converter c : SampleCatalog.of(registry).converters()) {
            SampleType result = c.out() == SampleType.SAME ? c.in() : c.out();
            out.println(c.name() + arguments(c.args().listing()) + ": " + result + " => " + c.in());
        }
    }

    /** The fetches, each with the rules where it is usable ("Y"), under HAProxy's legend of the columns. */
    private static void fetches(Registry registry, PrintStream out) {
        out.println("# List of registered sample fetch functions:");
        Stage[] stages = Stage.values();
        int n = stages.length;
        for (int i = 0; i < n; i++) {
            out.println("#" + " ".repeat(n + 1 - i) + "/ ".repeat(i) + "_." + "-".repeat(n - i) + " " + stages[i]);
        }
        out.println("# " + "/ ".repeat(n) + " ");
        out.println("# " + "| ".repeat(n));
        for (Fetch f : SampleCatalog.of(registry).fetches()) {
            StringBuilder b = new StringBuilder("[ ");
            for (Stage s : stages) {
                b.append((f.stages() & s.bit()) != 0 ? "Y " : ". ");
            }
            out.println(b.append("] ").append(f.name()).append(arguments(f.args().listing())).append(": ").append(f.out()));
        }
    }

    private static String arguments(String listing) {
        return listing.isEmpty() ? "" : "(" + listing + ")";
    }
}
