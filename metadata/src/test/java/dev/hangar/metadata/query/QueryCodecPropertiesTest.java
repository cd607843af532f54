package dev.hangar.metadata.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.hangar.metadata.command.Mutations;
import dev.hangar.metadata.command.PropertyRunner;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.random.RandomGenerator;
import java.util.random.RandomGeneratorFactory;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Properties of {@link QueryCodec} over {@link RandomQueries}, each run on queries and on results,
 * {@link PropertyRunner#cases()} cases a run (1,000 by default, so 6,000 in all; a failure names its
 * seed, to rerun with {@code -Dhangar.property.seed=<seed>}): a value decodes back to itself and
 * encodes to the same bytes; every strict prefix of its bytes is refused; damaged bytes are refused
 * or decode to a value that round-trips.
 */
class QueryCodecPropertiesTest {

    static Stream<Arguments> sides() {
        return Stream.of(
                Arguments.argumentSet("queries", (Function<RandomGenerator, Case>) Case::query),
                Arguments.argumentSet("results", (Function<RandomGenerator, Case>) Case::result));
    }

    @ParameterizedTest
    @MethodSource("sides")
    void decodingAnEncodingGivesTheValueBack(Function<RandomGenerator, Case> cases) {
        PropertyRunner.check("decode(encode(value)) equals value", cases, (each, random) -> {
            byte[] bytes = each.encode(each.value());

            Object decoded = each.decode(bytes);

            assertThat(RandomQueries.comparable(decoded)).isEqualTo(RandomQueries.comparable(each.value()));
            assertThat(each.encode(decoded)).as("one encoding per value").isEqualTo(bytes);
        });
    }

    @ParameterizedTest
    @MethodSource("sides")
    void everyStrictPrefixIsRefused(Function<RandomGenerator, Case> cases) {
        PropertyRunner.check("a strict prefix of an encoding is refused", cases, (each, random) -> {
            byte[] bytes = each.encode(each.value());
            for (int length : Mutations.prefixLengths(bytes.length, random)) {
                byte[] prefix = Arrays.copyOf(bytes, length);
                Mutations.assertRefused(catchThrowable(() -> each.decode(prefix)), each.what(), prefix);
            }
        });
    }

    @ParameterizedTest
    @MethodSource("sides")
    void damagedEncodingsAreRefusedOrDecodeToAValidValue(Function<RandomGenerator, Case> cases) {
        PropertyRunner.check("a damaged encoding is refused or is a value", cases, (each, random) -> {
            byte[] mutated = Mutations.mutate(each.encode(each.value()), random);
            Object decoded;
            try {
                decoded = each.decode(mutated);
            } catch (Throwable failure) {
                Mutations.assertRefused(failure, each.what(), mutated);
                return;
            }
            assertThat(RandomQueries.comparable(each.decode(each.encode(decoded))))
                    .isEqualTo(RandomQueries.comparable(decoded));
        });
    }

    /**
     * The generator makes every kind of query and every shape of result: a query added to the
     * sealed interface without a generator would otherwise go untested.
     */
    @Test
    void randomQueriesCoverEveryKindAndShape() {
        RandomQueries queries = new RandomQueries(RandomGeneratorFactory.of("L64X128MixRandom").create(42));
        for (int i = 0; i < PropertyRunner.DEFAULT_CASES; i++) {
            queries.result(queries.query());
        }
        Set<Object> expected = new HashSet<>(List.of(ReadQuery.class.getPermittedSubclasses()));
        expected.addAll(List.of("present", "empty", "no entries", "some entries", "long list", "null", "string"));

        assertThat(queries.variants()).containsAll(expected);
    }


    /** A value and the side of the codec it goes through. */
    record Case(Object value, Side side) {
        static Case query(RandomGenerator random) {
            return new Case(RandomQueries.queryOf(random), Side.QUERIES);
        }

        /** A result, encoded for the query a member decoded and decoded for the query the sender holds. */
        static Case result(RandomGenerator random) {
            RandomQueries queries = new RandomQueries(random);
            return answer(queries, queries.query());
        }

        private static <T> Case answer(RandomQueries queries, ReadQuery<T> query) {
            ReadQuery<?> received = QueryCodec.decode(QueryCodec.encode(query));
            return new Case(queries.result(query), Side.results(received, query));
        }

        byte[] encode(Object any) {
            return side.encode(any);
        }

        Object decode(byte[] bytes) {
            return side.decode(bytes);
        }

        String what() {
            return side.what();
        }

        /** Cut short: a failure prints its case, and a listing of hundreds would bury the seed. */
        @Override
        public String toString() {
            String text = String.valueOf(value);
            return side.what() + " " + (text.length() > 2_000 ? text.substring(0, 2_000) + "..." : text);
        }
    }
}
