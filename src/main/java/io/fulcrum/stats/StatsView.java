package io.fulcrum.stats;

import io.fulcrum.runtime.Fulcrum;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What one request of the stats page shows: the rows of {@code show stat} the page's scopes and options let
 * through, in the format asked for (the HTML page, or the CSV, typed and JSON outputs of the CLI).
 */
final class StatsView {
    private final StatsPage page;
    private final Fulcrum process;
    private final StatsQuery query;
    private final boolean admin;

    /** @param admin the request may act on servers ({@code stats admin}): the page shows the forms */
    StatsView(StatsPage page, Fulcrum process, StatsQuery query, boolean admin) {
        this.page = page;
        this.process = process;
        this.query = query;
        this.admin = admin;
    }

    String render() {
        List<StatRow> all = new ProxyRows(process).all();
        if (query.hideDown() || query.noMaint()) {
            StatFilter.countServers(all);
        }
        List<StatRow> shown = new ArrayList<>();
        for (StatRow r : all) {
            if (page.shows(String.valueOf(r.get(StatField.PXNAME)), query.scope()) && !hidden(r)) {
                // the HTML page shows them in its tooltips, with stats show-legends only
                shown.add(page.legends || query.format() == StatsQuery.Format.HTML ? r : r.withoutLegends());
            }
        }
        StringBuilder b = new StringBuilder(64 * 1024);
        switch (query.format()) {
            case CSV -> {
                StatFormats.csvHeader(b);
                shown.forEach(r -> StatFormats.csv(b, r));
            }
            case TYPED -> shown.forEach(r -> StatFormats.typed(b, r, false));
            case JSON -> StatFormats.json(b, shown);
            case JSON_SCHEMA -> throw new IllegalStateException("the JSON schema is not served");
            case HTML -> {
                Map<InfoField, Object> info = ProcessInfo.of(process);
                Map<Integer, String> descriptions = new HashMap<>();
                process.frontends().forEach(fe -> descriptions.put(fe.numericId(), fe.description()));
                process.backends().values().forEach(be -> descriptions.put(be.numericId(), be.description()));
                new StatsHtml(b, page, query, admin).render(info, all, shown, process.global().description, descriptions::get);
            }
        }
        return b.toString();
    }

    /** {@code ;up} and {@code ;no-maint} hide the servers {@code show stat up} and {@code no-maint} hide. */
    private boolean hidden(StatRow r) {
        return r.type() == ObjType.SERVER
                && (query.noMaint() && StatFilter.inMaintenance(r) || query.hideDown() && StatFilter.hiddenByUp(r));
    }
}
