/**
 * The XML bodies of the S3 protocol: every response document Hangar renders and every request
 * document it reads. Pure logic; no HTTP and no Spring types.
 *
 * <p>{@link dev.hangar.s3api.xml.S3Xml} is the whole surface. Each {@code render...} method takes
 * one immutable record (for example {@link dev.hangar.s3api.xml.ListObjectsV2Result}) and returns
 * the UTF-8 bytes of a complete document, starting with {@code <?xml version="1.0"
 * encoding="UTF-8"?>}, its root in the S3 namespace declared as the default namespace (the
 * {@code Error} and {@code PostResponse} documents have no namespace, as on AWS). Elements come in the order AWS S3
 * sends them, which is not always the order of the "Response Syntax" blocks in the API reference
 * (those follow the service model, not the wire); the order each renderer uses, and where it comes
 * from, is written beside it. Optional elements are rendered when their record component is not
 * {@code null}: the caller decides what S3 echoes, the renderer decides where it goes.
 *
 * <p>The bucket and object configurations (versioning, tagging, CORS, website, lifecycle, ACL,
 * Object Lock, retention, legal hold) go both ways, since Hangar stores what a client puts and
 * gives it back on a get: for each, {@code parse(render(x))} equals {@code x}. Their parsers also
 * refuse what S3 refuses, with S3's codes beyond MalformedXML (InvalidArgument, InvalidRequest,
 * InvalidTag, InvalidRetentionPeriod, MalformedACLError) and the messages S3 was recorded answering; what
 * needs state or a clock (whether an id exists, whether a date is in the future) is the caller's.
 *
 * <p>The {@code parse...} methods read a request body from an {@code InputStream} with a size
 * bound, as UTF-8, with DTDs and external entities refused, and accept elements in the S3
 * namespace or in none, since clients differ. They skip elements they do not know, as S3 does.
 * Anything that is not the expected document throws {@link dev.hangar.s3api.S3Exception} with
 * {@link dev.hangar.s3api.S3Error#MALFORMED_XML} and a message that says what was wrong. Typed
 * values (numbers, booleans, enumerations, timestamps) are read with surrounding white space
 * removed; free text (keys, tag values, origins) is kept exactly as sent.
 *
 * <p>Text that XML 1.0 cannot carry (most C0 control characters, lone surrogates) is refused with
 * an {@link IllegalArgumentException} rather than written into a document no client can parse; a
 * carriage return, which an XML parser would turn into a line feed, is written as {@code &#13;} so
 * that it survives. {@link dev.hangar.s3api.xml.S3Xml#urlEncodeKey(String)} is S3's
 * {@code encoding-type=url} encoding, for listings that ask for it.
 */
@NullMarked
package dev.hangar.s3api.xml;

import org.jspecify.annotations.NullMarked;
