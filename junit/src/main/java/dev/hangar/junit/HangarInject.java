package dev.hangar.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a field that {@link HangarExtension} fills before each test (a static one before the class's first):
 * a {@link HangarServer}, an {@code S3Client}, an {@code S3AsyncClient} or the endpoint as a {@code URI}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.FIELD)
public @interface HangarInject {}
