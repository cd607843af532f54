package dev.hangar.s3api.xml;

import static dev.hangar.s3api.xml.DomDocuments.child;
import static dev.hangar.s3api.xml.DomDocuments.childNames;
import static dev.hangar.s3api.xml.DomDocuments.children;
import static dev.hangar.s3api.xml.DomDocuments.text;
import static dev.hangar.s3api.xml.RequestBodies.NAMESPACE;
import static dev.hangar.s3api.xml.RequestBodies.assertMalformed;
import static dev.hangar.s3api.xml.RequestBodies.assertRefused;
import static dev.hangar.s3api.xml.RequestBodies.body;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.s3api.S3Error;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.w3c.dom.Element;

class TaggingTest {
    private static final String INVALID_KEY = "The TagKey you have provided is invalid";
    private static final String INVALID_VALUE = "The TagValue you have provided is invalid";
    private static final String DUPLICATE = "Cannot provide multiple Tags with the same key";

    private static String taggingOf(List<Tag> tags) {
        StringBuilder document = new StringBuilder("<Tagging" + NAMESPACE + "><TagSet>");
        for (Tag tag : tags) {
            document.append("<Tag><Key>").append(tag.key()).append("</Key><Value>").append(tag.value()).append("</Value></Tag>");
        }
        return document.append("</TagSet></Tagging>").toString();
    }

    private static List<Tag> numbered(int count) {
        List<Tag> tags = new ArrayList<>();
        for (int index = 0; index < count; index++) {
            tags.add(new Tag("key-" + index, "value-" + index));
        }
        return tags;
    }

    @Test
    void rendersTagsInsideTheTagSet() {
        var tagging = new Tagging(List.of(new Tag("project", "flyology"), new Tag("empty", "")));

        Element root = DomDocuments.s3Root(S3Xml.renderTagging(tagging), "Tagging");

        assertThat(childNames(root)).containsExactly("TagSet");
        List<Element> tags = children(child(root, "TagSet"), "Tag");
        assertThat(tags).hasSize(2);
        assertThat(childNames(tags.get(0))).containsExactly("Key", "Value");
        assertThat(text(tags.get(0), "Key")).isEqualTo("project");
        assertThat(text(tags.get(1), "Value")).isEmpty();
    }

    @Test
    void anUntaggedObjectHasAnEmptyTagSet() {
        Element root = DomDocuments.s3Root(S3Xml.renderTagging(Tagging.none()), "Tagging");

        assertThat(childNames(child(root, "TagSet"))).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(TaggedResource.class)
    void survivesTheRoundTrip(TaggedResource resource) {
        var tagging = new Tagging(List.of(
                new Tag("a", "1"), new Tag("caf\u00e9 \u65e5\u672c", "x_y.z:/=+-@ \ud840\udc00"), new Tag("k".repeat(128), "")));

        assertThat(S3Xml.parseTagging(body(S3Xml.renderTagging(tagging)), resource)).isEqualTo(tagging);
        assertThat(S3Xml.parseTagging(body(S3Xml.renderTagging(Tagging.none())), resource)).isEqualTo(Tagging.none());
    }

    @Test
    void readsTheApiReferenceSampleWithoutTheNamespace() {
        Tagging tagging = S3Xml.parseTagging(body("""
                <Tagging>
                  <TagSet>
                    <Tag>
                      <Key>tag1</Key>
                      <Value>val1</Value>
                    </Tag>
                  </TagSet>
                </Tagging>"""), TaggedResource.OBJECT);

        assertThat(tagging.tagSet()).containsExactly(new Tag("tag1", "val1"));
    }

    @Test
    void keepsKeysAndValuesExactlyAsSent() {
        Tagging tagging = S3Xml.parseTagging(
                body("<Tagging><TagSet><Tag><Value> v </Value><Key> k </Key></Tag></TagSet></Tagging>"), TaggedResource.OBJECT);

        assertThat(tagging.tagSet()).containsExactly(new Tag(" k ", " v "));
    }

    @Test
    void acceptsTenObjectTagsAndFiftyBucketTags() {
        assertThat(S3Xml.parseTagging(body(taggingOf(numbered(10))), TaggedResource.OBJECT).tagSet()).hasSize(10);
        assertThat(S3Xml.parseTagging(body(taggingOf(numbered(50))), TaggedResource.BUCKET).tagSet()).hasSize(50);
    }

    @Test
    void refusesMoreTagsThanTheResourceMayHaveAsS3Does() {
        assertRefused(() -> S3Xml.parseTagging(body(taggingOf(numbered(11))), TaggedResource.OBJECT),
                S3Error.INVALID_TAG, "Object tags cannot be greater than 10");
        assertRefused(() -> S3Xml.parseTagging(body(taggingOf(numbered(51))), TaggedResource.BUCKET),
                S3Error.INVALID_TAG, "Bucket tag count cannot be greater than 50");
    }

    @Test
    void judgesEachTagBeforeTheCount() {
        List<Tag> tags = numbered(11);
        tags.set(10, new Tag("bad#key", "v"));

        assertRefused(() -> S3Xml.parseTagging(body(taggingOf(tags)), TaggedResource.OBJECT), S3Error.INVALID_TAG, INVALID_KEY);
    }

    @Test
    void refusesADuplicateKey() {
        assertRefused(
                () -> S3Xml.parseTagging(body(taggingOf(List.of(new Tag("a", "1"), new Tag("a", "2")))), TaggedResource.BUCKET),
                S3Error.INVALID_TAG, DUPLICATE);
    }

    @Test
    void countsLengthsInUtf16CodeUnits() {
        // U+20000, a CJK ideograph outside the BMP: a letter that takes two UTF-16 code units.
        String wideLetter = "\ud840\udc00";
        assertThat(S3Xml.parseTagging(body(taggingOf(List.of(new Tag(wideLetter.repeat(64), "v")))), TaggedResource.OBJECT)
                .tagSet()).hasSize(1);
        assertRefused(() -> S3Xml.parseTagging(body(taggingOf(List.of(new Tag(wideLetter.repeat(64) + "x", "v")))),
                TaggedResource.OBJECT), S3Error.INVALID_TAG, INVALID_KEY);
        assertRefused(() -> S3Xml.parseTagging(body(taggingOf(List.of(new Tag("k", wideLetter.repeat(128) + "x")))),
                TaggedResource.OBJECT), S3Error.INVALID_TAG, INVALID_VALUE);
    }

    @Test
    void refusesKeysAndValuesOverTheirLimits() {
        assertRefused(() -> S3Xml.parseTagging(body(taggingOf(List.of(new Tag("k".repeat(129), "v")))), TaggedResource.OBJECT),
                S3Error.INVALID_TAG, INVALID_KEY);
        assertRefused(() -> S3Xml.parseTagging(body(taggingOf(List.of(new Tag("k", "v".repeat(257))))), TaggedResource.OBJECT),
                S3Error.INVALID_TAG, INVALID_VALUE);
        assertThat(S3Xml.parseTagging(body(taggingOf(List.of(new Tag("k", "v".repeat(256))))), TaggedResource.OBJECT)
                .tagSet()).hasSize(1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "user!name", "foo#bar", "data%20", "tab\there", "[x]", "smile\ud83d\ude00"})
    void refusesKeysS3Refuses(String key) {
        assertRefused(() -> S3Xml.parseTagging(body(taggingOf(List.of(new Tag(key, "v")))), TaggedResource.OBJECT),
                S3Error.INVALID_TAG, INVALID_KEY);
    }

    @Test
    void refusesAValueWithACharacterTagsMayNotHold() {
        assertRefused(() -> S3Xml.parseTagging(body(taggingOf(List.of(new Tag("k", "a,b")))), TaggedResource.OBJECT),
                S3Error.INVALID_TAG, INVALID_VALUE);
    }

    @Test
    void refusesADocumentWithoutTagSetOrWithAnIncompleteTag() {
        assertMalformed(() -> S3Xml.parseTagging(body("<Tagging/>"), TaggedResource.OBJECT), "Tagging has no TagSet");
        assertMalformed(
                () -> S3Xml.parseTagging(body("<Tagging><TagSet><Tag><Value>v</Value></Tag></TagSet></Tagging>"),
                        TaggedResource.OBJECT),
                "Tag 1 has no Key");
        assertMalformed(
                () -> S3Xml.parseTagging(body("<Tagging><TagSet><Tag><Key>k</Key></Tag></TagSet></Tagging>"),
                        TaggedResource.OBJECT),
                "Tag 1 has no Value");
        assertMalformed(() -> S3Xml.parseTagging(body(""), TaggedResource.OBJECT), "empty");
    }

    @Test
    void readsTheHeaderFormAsAFormIsDecoded() {
        Tagging tagging = S3Xml.parseTaggingHeader("tag1=value1&tag2=a+b%2Bc&caf%C3%A9=%E6%97%A5&empty=&bare", TaggedResource.OBJECT);

        assertThat(tagging.tagSet()).containsExactly(
                new Tag("tag1", "value1"), new Tag("tag2", "a b+c"), new Tag("caf\u00e9", "\u65e5"),
                new Tag("empty", ""), new Tag("bare", ""));
    }

    @Test
    void anEmptyHeaderIsNoTag() {
        assertThat(S3Xml.parseTaggingHeader("", TaggedResource.OBJECT)).isEqualTo(Tagging.none());
        assertThat(S3Xml.parseTaggingHeader("a=1&&b=2&", TaggedResource.OBJECT).tagSet())
                .containsExactly(new Tag("a", "1"), new Tag("b", "2"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"a=1&a=2", "TagSet=[{Key=string,Value=string}]", "a=%2", "a=%zz", "a=%C3", "a=%FF"})
    void refusesAHeaderThatDoesNotDecodeAsS3Does(String header) {
        assertRefused(() -> S3Xml.parseTaggingHeader(header, TaggedResource.OBJECT), S3Error.INVALID_ARGUMENT,
                "The header 'x-amz-tagging' shall be encoded as UTF-8 then URLEncoded URL query parameters without tag "
                        + "name duplicates.");
    }

    @Test
    void holdsTheHeaderToTheSameLimits() {
        StringBuilder eleven = new StringBuilder();
        for (int index = 0; index < 11; index++) {
            eleven.append(index == 0 ? "" : "&").append("k").append(index).append("=v");
        }
        assertRefused(() -> S3Xml.parseTaggingHeader(eleven.toString(), TaggedResource.OBJECT),
                S3Error.INVALID_TAG, "Object tags cannot be greater than 10");
        assertRefused(() -> S3Xml.parseTaggingHeader("TagSet%3D%5B%7BKey%3Dstring%2CValue%3Dstring%7D%5D", TaggedResource.OBJECT),
                S3Error.INVALID_TAG, INVALID_KEY);
        assertRefused(() -> S3Xml.parseTaggingHeader("k=" + "v".repeat(257), TaggedResource.OBJECT),
                S3Error.INVALID_TAG, INVALID_VALUE);
        assertRefused(() -> S3Xml.parseTaggingHeader("=v", TaggedResource.OBJECT), S3Error.INVALID_TAG, INVALID_KEY);
    }
}
