package io.fulcrum.proxy;

/** What an {@code option} keyword configures: the proxy, and whether the line said {@code no option}. */
public record OptionContext(ProxySpec proxy, boolean enabled) {
}
