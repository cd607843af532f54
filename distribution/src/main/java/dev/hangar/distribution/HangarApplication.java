package dev.hangar.distribution;

import java.util.OptionalInt;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** Hangar: an S3-compatible object store. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class HangarApplication {

    public static void main(String[] args) {
        OptionalInt answered = CommandLine.answer(args, System.out, System.err);
        if (answered.isPresent()) {
            System.exit(answered.getAsInt());
        }
        SpringApplication.run(HangarApplication.class, args);
    }
}
