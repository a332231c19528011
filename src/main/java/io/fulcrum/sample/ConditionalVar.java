package io.fulcrum.sample;

import io.fulcrum.cfg.ConfigException;

import java.util.List;

/** The target of {@code set-var(<name>[,<cond>...])}: a variable and the conditions under which it is stored. */
public record ConditionalVar(VarRef var, List<VarCondition> conditions) {

    /** Parses what the parentheses hold ("txn.x,ifnotempty,ifgt"), with HAProxy's wording. */
    public static ConditionalVar parse(String text) throws ConfigException {
        String[] parts = text.split(",", -1);
        VarRef var = VarRef.parse(parts[0]);
        VarCondition[] conditions = new VarCondition[parts.length - 1];
        for (int i = 1; i < parts.length; i++) {
            conditions[i - 1] = VarCondition.of(parts[i]);
        }
        return new ConditionalVar(var, List.of(conditions));
    }

    /** Stores a copy of {@code value} when every condition holds; false when one did not or the store was refused. */
    public boolean set(SampleContext ctx, Sample value) {
        if (!conditions.isEmpty()) {
            Sample old = var.get(ctx);
            for (int i = 0; i < conditions.size(); i++) {
                if (!conditions.get(i).holds(var, old, value)) {
                    return false;
                }
            }
        }
        return var.set(ctx, value);
    }

    @Override
    public String toString() {
        return var.toString();
    }
}
