package io.fulcrum.sample;

import io.fulcrum.cfg.Module;
import io.fulcrum.cfg.Registry;

/** The sample language's own keywords: the internal-state fetches and the general converters. */
public final class SampleModule implements Module {

    @Override
    public void register(Registry registry) {
        SampleCatalog catalog = SampleCatalog.of(registry);
        InternalFetches.register(catalog);
        ProcessFetches.register(catalog);
        BasicConverters.register(catalog);
        ArithmeticConverters.register(catalog);
        StringConverters.register(catalog);
        HashConverters.register(catalog);
        CryptoConverters.register(catalog);
        EncodingConverters.register(catalog);
        TimeConverters.register(catalog);
        JsonConverters.register(catalog);
        ProtocolConverters.register(catalog);
        VarLimits.register(registry);
    }
}
