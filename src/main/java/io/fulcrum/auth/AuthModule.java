package io.fulcrum.auth;

import io.fulcrum.cfg.Args;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.ConfigLine;
import io.fulcrum.cfg.ConfigModel;
import io.fulcrum.cfg.KeywordTable;
import io.fulcrum.http.AuthFetches;
import io.fulcrum.cfg.Module;
import io.fulcrum.cfg.Registry;
import io.fulcrum.cfg.Registry.TableKey;
import io.fulcrum.cfg.SectionParser;
import io.fulcrum.sample.Arg;
import io.fulcrum.sample.ArgResolution;
import io.fulcrum.sample.ArgSpec;
import io.fulcrum.sample.ArgType;
import io.fulcrum.sample.Fetch;
import io.fulcrum.sample.Sample;
import io.fulcrum.sample.SampleCatalog;
import io.fulcrum.sample.SampleContext;
import io.fulcrum.sample.SampleType;
import io.fulcrum.sample.Source;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * {@code userlist} sections ({@code user}, {@code group}) and the fetches that check a request's Basic
 * credentials against them: {@code http_auth}, {@code http_auth_group} (the http package reads the
 * credentials themselves: {@code http_auth_user}...).
 */
public final class AuthModule implements Module {
    static final TableKey<Userlist> KEYWORDS = new TableKey<>("userlist");

    @Override
    public void register(Registry registry) {
        KeywordTable<Userlist> keywords = registry.table(KEYWORDS);
        keywords.add("user", AuthModule::user);
        keywords.add("group", AuthModule::group);
        registry.section("userlist", (header, model) -> open(header, model, keywords));

        List<UserlistRef> pending = new ArrayList<>();
        SampleCatalog c = SampleCatalog.of(registry);
        c.fetch(new Fetch("http_auth", ArgSpec.of(1, ArgType.USR), SampleType.BOOL, Source.HRQHV,
                (a, ctx, out) -> out.setBool(authenticated(a, ctx) != null), a -> bind(a, pending)));
        c.fetch(new Fetch("http_auth_group", ArgSpec.of(1, ArgType.USR), SampleType.STR, Source.HRQHV, (a, ctx, out) -> {
            String user = authenticated(a, ctx);
            return user != null && out.setStr(user);
        }, a -> bind(a, pending)).withEach(AuthModule::eachGroup));
        // A userlist that does not exist is reported with the other argument resolution errors, where it is named.
        ArgResolution.of(registry).resolver(ArgType.USR,
                (name, where, model) -> UserlistTable.of(model).lists.containsKey(name) ? null : "unable to find userlist '" + name + "'");
        registry.check((model, diag) -> {
            for (UserlistRef r : pending) {
                r.bind(UserlistTable.of(model).lists.get(r.name));
            }
            pending.clear();
        });
    }

    private static void bind(Arg[] a, List<UserlistRef> pending) {
        UserlistRef ref = new UserlistRef(a[0].text());
        pending.add(ref);
        a[0] = new Arg(ArgType.USR, a[0].text(), 0, ref);
    }

    /** The user name when the request's Basic credentials are valid in the argument's userlist, else null. */
    private static String authenticated(Arg[] a, SampleContext ctx) {
        Userlist list = a[0].as(UserlistRef.class).get();
        String[] cr = AuthFetches.basic(ctx);
        return list != null && cr != null && list.check(cr[0], cr[1]) ? cr[0] : null;
    }

    /** For ACLs, http_auth_group's values are the groups of the authenticated user. */
    private static boolean eachGroup(Arg[] a, SampleContext ctx, Sample out, Predicate<Sample> visitor) {
        String user = authenticated(a, ctx);
        if (user == null) {
            return false;
        }
        for (String g : a[0].as(UserlistRef.class).get().groupsOf(user)) {
            out.setStr(g);
            if (visitor.test(out)) {
                return true;
            }
        }
        return false;
    }

    private static SectionParser open(ConfigLine header, ConfigModel model, KeywordTable<Userlist> keywords) throws ConfigException {
        String name = header.arg(1);
        if (name.isEmpty()) {
            throw new ConfigException("'userlist' expects <name> as arguments.");
        }
        UserlistTable table = UserlistTable.of(model);
        if (table.lists.containsKey(name)) {
            throw new ConfigException("sections 'userlist' named '" + name + "' have the same name.");
        }
        Userlist list = new Userlist(name);
        table.lists.put(name, list);
        return line -> {
            KeywordTable.Entry<Userlist> e = keywords.find(line.keyword());
            if (e == null) {
                throw keywords.unknown(line.keyword(), "unknown keyword '" + line.keyword() + "' in 'users' section");
            }
            e.parser().parse(list, line);
        };
    }

    private static void user(Userlist list, ConfigLine l) throws ConfigException {
        String name = Args.required(l, 1, "user", "<user_name> as argument");
        if (list.users.containsKey(name)) {
            l.warn("ignoring duplicated user '" + name + "' in userlist '" + list.name() + "'.");
            return;
        }
        String password = null;
        boolean insecure = false;
        Set<String> groups = new LinkedHashSet<>();
        for (int i = 2; l.has(i); i += 2) {
            switch (l.arg(i)) {
                case "password", "insecure-password" -> {
                    insecure = l.arg(i).equals("insecure-password");
                    password = Args.required(l, i + 1, l.arg(i), "a password");
                    if (!insecure && !Crypt.supports(password)) {
                        throw new ConfigException("the password hash of user '" + name + "' needs the system's crypt library "
                                + "(libcrypt.so.1), which is missing: only $1$, $5$ and $6$ hashes can be checked without it.");
                    }
                }
                case "groups" -> groups.addAll(List.of(Args.required(l, i + 1, "groups", "a list of groups").split(",")));
                default -> throw new ConfigException("'user' only supports 'password', 'insecure-password' and 'groups' (got '"
                        + l.arg(i) + "').");
            }
        }
        list.users.put(name, new Userlist.User(name, password == null ? "" : password, insecure || password == null, groups));
    }

    private static void group(Userlist list, ConfigLine l) throws ConfigException {
        String name = Args.required(l, 1, "group", "<group_name> as argument");
        if (list.groups.containsKey(name)) {
            l.warn("ignoring duplicated group '" + name + "' in userlist '" + list.name() + "'.");
            return;
        }
        Set<String> users = new LinkedHashSet<>();
        if (l.arg(2).equals("users")) {
            users.addAll(List.of(Args.required(l, 3, "users", "a list of users").split(",")));
        } else if (l.has(2)) {
            throw new ConfigException("'group' only supports 'users' (got '" + l.arg(2) + "').");
        }
        list.groups.put(name, users);
    }
}
