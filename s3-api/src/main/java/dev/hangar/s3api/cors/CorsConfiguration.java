package dev.hangar.s3api.cors;

import java.util.List;

/** A bucket's CORS configuration: its rules, in the order S3 evaluates them. */
public record CorsConfiguration(List<CorsRule> rules) {
    public CorsConfiguration {
        rules = List.copyOf(rules);
    }
}
