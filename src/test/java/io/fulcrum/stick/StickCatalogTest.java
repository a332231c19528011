package io.fulcrum.stick;

import io.fulcrum.Modules;
import io.fulcrum.cfg.Registry;
import io.fulcrum.sample.SampleCatalog;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Every stick-table fetch and converter of HAProxy 2.6 is registered (their signatures are checked by FetchSignatureTest). */
class StickCatalogTest {

    @Test
    void everyStickTableFetchAndConverterIsThere() throws IOException {
        SampleCatalog catalog = SampleCatalog.of(Registry.of(Modules.ALL));
        List<String> inventory;
        try (InputStream in = StickCatalogTest.class.getResourceAsStream("/io/fulcrum/cfg/haproxy-keywords.txt")) {
            inventory = Arrays.asList(new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n"));
        }
        List<String> fetches = inventory.stream().filter(l -> l.startsWith("fetch ")).map(l -> l.substring(6).trim())
                .filter(n -> n.matches("sc[0-2]?_.*|src_(?!port|is_local).*|table_(avl|cnt)")).toList();
        List<String> converters = inventory.stream().filter(l -> l.startsWith("converter ")).map(l -> l.substring(10).trim())
                .filter(n -> n.startsWith("table_") || n.equals("in_table")).toList();
        assertThat(fetches).hasSize(141);
        assertThat(fetches).allMatch(n -> catalog.fetch(n) != null);
        assertThat(converters).hasSize(28).allMatch(n -> catalog.converter(n) != null);
    }
}
