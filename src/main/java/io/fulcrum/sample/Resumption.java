package io.fulcrum.sample;

import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;

/**
 * What a transaction's waiting rule waits for ({@link SampleContext#resumeWhen}): once it completes, the rules run again
 * on the transaction's loop, with {@link #resumed()} giving it while they do. Touched on that loop only.
 */
public final class Resumption {
    private CompletionStage<?> awaited;
    private CompletionStage<?> resumed;

    /**
     * Runs {@code rerun} on {@code loop} once {@code done} completes, if it is still what the rules wait for and
     * {@code waiting} still says so then.
     */
    public void when(CompletionStage<?> done, Executor loop, BooleanSupplier waiting, Runnable rerun) {
        awaited = done;
        done.whenComplete((v, e) -> loop.execute(() -> {
            if (awaited == done && waiting.getAsBoolean()) {
                awaited = null;
                resumed = done;
                rerun.run();
                resumed = null;
            }
        }));
    }

    /** While the rules run again: what they waited for, completed; else null. */
    public CompletionStage<?> resumed() {
        return resumed;
    }
}
