package dev.hangar.metadata.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.Precondition;
import dev.hangar.metadata.state.Outcome;
import dev.hangar.metadata.state.Refusal;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.random.RandomGenerator;
import java.util.random.RandomGeneratorFactory;
import org.junit.jupiter.api.Test;

/**
 * Properties of {@link CommandCodec} and {@link OutcomeCodec} over {@link RandomCommands}, each on
 * {@link PropertyRunner#cases()} cases (1,000 by default; a failure names its seed).
 */
class CommandCodecPropertiesTest {
    @Test
    void decodingAnEncodingGivesTheCommandBack() {
        PropertyRunner.check("decode(encode(command)) equals command", random -> new RandomCommands(random).command(),
                (command, random) -> {
                    byte[] bytes = CommandCodec.encode(command);

                    MetadataCommand<?> decoded = CommandCodec.decode(bytes);

                    assertThat(decoded).isEqualTo(command);
                    assertThat(CommandCodec.encode(decoded)).as("one encoding per command").isEqualTo(bytes);
                });
    }

    @Test
    void decodingAnEncodedOutcomeGivesTheOutcomeBack() {
        PropertyRunner.check("decode(command, encode(command, outcome)) equals outcome", CommandAndOutcome::random,
                (pair, random) -> {
                    byte[] bytes = pair.encode();

                    Outcome<?> decoded = pair.decode(bytes);

                    assertThat(decoded).isEqualTo(pair.outcome());
                    assertThat(pair.with(decoded).encode()).isEqualTo(bytes);
                });
    }

    @Test
    void everyStrictPrefixOfACommandIsRefused() {
        PropertyRunner.check("a strict prefix of an encoded command is refused",
                random -> new RandomCommands(random).command(),
                (command, random) -> {
                    byte[] bytes = CommandCodec.encode(command);
                    for (int length : Mutations.prefixLengths(bytes.length, random)) {
                        byte[] prefix = Arrays.copyOf(bytes, length);
                        Mutations.assertRefused(catchThrowable(() -> CommandCodec.decode(prefix)), "command", prefix);
                    }
                });
    }

    @Test
    void everyStrictPrefixOfAnOutcomeIsRefused() {
        PropertyRunner.check("a strict prefix of an encoded outcome is refused", CommandAndOutcome::random,
                (pair, random) -> {
                    byte[] bytes = pair.encode();
                    for (int length : Mutations.prefixLengths(bytes.length, random)) {
                        byte[] prefix = Arrays.copyOf(bytes, length);
                        Mutations.assertRefused(catchThrowable(() -> pair.decode(prefix)), "outcome", prefix);
                    }
                });
    }

    @Test
    void mutatedCommandsAreRefusedOrDecodeToAValidCommand() {
        PropertyRunner.check("a mutated command is refused or is a command",
                random -> new RandomCommands(random).command(),
                (command, random) -> {
                    byte[] mutated = Mutations.mutate(CommandCodec.encode(command), random);
                    MetadataCommand<?> decoded;
                    try {
                        decoded = CommandCodec.decode(mutated);
                    } catch (Throwable failure) {
                        Mutations.assertRefused(failure, "command", mutated);
                        return;
                    }
                    assertThat(CommandCodec.decode(CommandCodec.encode(decoded))).isEqualTo(decoded);
                });
    }

    @Test
    void mutatedOutcomesAreRefusedOrDecodeToAValidOutcome() {
        PropertyRunner.check("a mutated outcome is refused or is an outcome", CommandAndOutcome::random,
                (pair, random) -> {
                    byte[] mutated = Mutations.mutate(pair.encode(), random);
                    Outcome<?> decoded;
                    try {
                        decoded = pair.decode(mutated);
                    } catch (Throwable failure) {
                        Mutations.assertRefused(failure, "outcome", mutated);
                        return;
                    }
                    CommandAndOutcome<?> again = pair.with(decoded);
                    assertThat(again.decode(again.encode())).isEqualTo(decoded);
                });
    }

    /**
     * The generator makes every command and every variant of the values inside: one added to a
     * sealed type without a generator would otherwise go untested.
     */
    @Test
    void randomCommandsCoverEveryVariant() {
        RandomCommands commands = new RandomCommands(RandomGeneratorFactory.of("L64X128MixRandom").create(42));
        for (int i = 0; i < PropertyRunner.DEFAULT_CASES; i++) {
            commands.outcome(commands.command());
        }
        Set<Object> expected = new HashSet<>(List.of(Refusal.values()));
        for (Class<?> sealed : List.of(MetadataCommand.class, VersionChange.class, AccessKeyChange.class,
                Precondition.class, ObjectContent.class, Outcome.class)) {
            expected.addAll(List.of(sealed.getPermittedSubclasses()));
        }

        assertThat(commands.variants()).containsAll(expected);
    }


    /** A command and an outcome it could have: the outcome codec needs both. */
    private record CommandAndOutcome<R>(MetadataCommand<R> command, Outcome<R> outcome) {
        static CommandAndOutcome<?> random(RandomGenerator random) {
            RandomCommands commands = new RandomCommands(random);
            return of(commands, commands.command());
        }

        private static <R> CommandAndOutcome<R> of(RandomCommands commands, MetadataCommand<R> command) {
            return new CommandAndOutcome<>(command, commands.outcome(command));
        }

        byte[] encode() {
            return OutcomeCodec.encode(command, outcome);
        }

        Outcome<R> decode(byte[] bytes) {
            return OutcomeCodec.decode(command, bytes);
        }

        /** The same command with {@code other}, an outcome decoded for it. */
        @SuppressWarnings("unchecked") // OutcomeCodec.decode(command, ...) gave it: an Outcome<R>
        CommandAndOutcome<R> with(Outcome<?> other) {
            return new CommandAndOutcome<>(command, (Outcome<R>) other);
        }
    }
}
