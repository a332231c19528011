package io.fulcrum;

import io.fulcrum.acl.AclModule;
import io.fulcrum.auth.AuthModule;
import io.fulcrum.cache.CacheModule;
import io.fulcrum.backend.BackendModule;
import io.fulcrum.cli.CliModule;
import io.fulcrum.cfg.Module;
import io.fulcrum.check.CheckModule;
import io.fulcrum.compression.CompressionModule;
import io.fulcrum.conn.ConnModule;
import io.fulcrum.http.HttpErrorsModule;
import io.fulcrum.http.HttpModule;
import io.fulcrum.listener.ListenerModule;
import io.fulcrum.mux.h1.H1Module;
import io.fulcrum.peers.PeersModule;
import io.fulcrum.persist.PersistModule;
import io.fulcrum.log.LogModule;
import io.fulcrum.mailers.MailersModule;
import io.fulcrum.master.MasterModule;
import io.fulcrum.pool.PoolModule;
import io.fulcrum.proxy.ProxyModule;
import io.fulcrum.resolvers.ResolversModule;
import io.fulcrum.rules.RuleModule;
import io.fulcrum.rules.TcpRuleModule;
import io.fulcrum.runtime.GlobalModule;
import io.fulcrum.sample.SampleModule;
import io.fulcrum.server.ServerModule;
import io.fulcrum.stats.StatsModule;
import io.fulcrum.stick.StickModule;
import io.fulcrum.stream.StreamModule;
import io.fulcrum.tls.TlsModule;

import java.util.List;

/** Every subsystem's registration, in one place. A new subsystem adds one line here. */
public final class Modules {
    private Modules() {
    }

    public static final List<Module> ALL = List.of(
            new GlobalModule(),
            new ProxyModule(),
            new ListenerModule(),
            new ServerModule(),
            new ResolversModule(),
            new BackendModule(),
            new PersistModule(),
            new CheckModule(),
            new ConnModule(),
            new TlsModule(),
            new HttpModule(),
            new H1Module(),
            new PoolModule(),
            new HttpErrorsModule(),
            new CompressionModule(),
            new CacheModule(),
            new SampleModule(),
            new AclModule(),
            new RuleModule(),
            new TcpRuleModule(),
            new StickModule(),
            new PeersModule(),
            new AuthModule(),
            new LogModule(),
            new MailersModule(),
            new CliModule(),
            new StreamModule(),
            new StatsModule(),
            new MasterModule());
}
