package io.fulcrum.auth;

/**
 * A userlist named by a fetch argument ({@code http_auth(L1)}). Userlists may be declared after the
 * proxies that use them, so the reference is bound once the whole configuration is read.
 */
final class UserlistRef {
    final String name;
    private volatile Userlist target;

    UserlistRef(String name) {
        this.name = name;
    }

    void bind(Userlist list) {
        target = list;
    }

    Userlist get() {
        return target;
    }
}
