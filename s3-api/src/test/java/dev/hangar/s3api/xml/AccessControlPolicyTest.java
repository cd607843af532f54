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
import dev.hangar.s3api.xml.Grant.Permission;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.w3c.dom.Element;

class AccessControlPolicyTest {
    private static final String XSI = "http://www.w3.org/2001/XMLSchema-instance";
    private static final String OWNER_ID = "75aa57f09aa0c8caeab4f8c24e99d10f8e7faeebf76c078efc7c6caea54ba06a";
    private static final AccessControlPolicy EVERY_KIND = new AccessControlPolicy(
            new Owner(OWNER_ID, "mtd@amazon.com"),
            List.of(
                    new Grant(new Grantee.CanonicalUser(OWNER_ID, "mtd@amazon.com"), Permission.FULL_CONTROL),
                    new Grant(new Grantee.CanonicalUser("79a59df900b949e55d96a1e698fbacedfd6e09d98eacf8f8d5218e7cd47ef2be"),
                            Permission.READ_ACP),
                    new Grant(new Grantee.Group(Grantee.Group.ALL_USERS), Permission.READ),
                    new Grant(new Grantee.Group(Grantee.Group.LOG_DELIVERY), Permission.WRITE),
                    new Grant(new Grantee.AmazonCustomerByEmail("xyz@amazon.com"), Permission.WRITE_ACP)));

    private static String policyWithGrants(String grants) {
        return "<AccessControlPolicy><Owner><ID>" + OWNER_ID + "</ID></Owner><AccessControlList>" + grants
                + "</AccessControlList></AccessControlPolicy>";
    }

    private static String grantee(String type, String elements) {
        return "<Grant><Grantee xmlns:xsi=\"" + XSI + "\" xsi:type=\"" + type + "\">" + elements
                + "</Grantee><Permission>READ</Permission></Grant>";
    }

    @Test
    void rendersTheOwnerThenTheGrantsWithTypedGrantees() {
        byte[] document = S3Xml.renderAccessControlPolicy(EVERY_KIND);
        Element root = DomDocuments.s3Root(document, "AccessControlPolicy");

        assertThat(childNames(root)).containsExactly("Owner", "AccessControlList");
        assertThat(childNames(child(root, "Owner"))).containsExactly("ID", "DisplayName");
        List<Element> grants = children(child(root, "AccessControlList"), "Grant");
        assertThat(grants).hasSize(5);
        for (Element grant : grants) {
            assertThat(childNames(grant)).containsExactly("Grantee", "Permission");
        }
        Element user = child(grants.get(0), "Grantee");
        assertThat(user.getAttributeNS(XSI, "type")).isEqualTo("CanonicalUser");
        assertThat(childNames(user)).containsExactly("ID", "DisplayName");
        assertThat(text(grants.get(0), "Permission")).isEqualTo("FULL_CONTROL");
        assertThat(childNames(child(grants.get(1), "Grantee"))).containsExactly("ID");
        Element group = child(grants.get(2), "Grantee");
        assertThat(group.getAttributeNS(XSI, "type")).isEqualTo("Group");
        assertThat(text(group, "URI")).isEqualTo("http://acs.amazonaws.com/groups/global/AllUsers");
        Element email = child(grants.get(4), "Grantee");
        assertThat(email.getAttributeNS(XSI, "type")).isEqualTo("AmazonCustomerByEmail");
        assertThat(childNames(email)).containsExactly("EmailAddress");
        assertThat(text(grants.get(4), "Permission")).isEqualTo("WRITE_ACP");
    }

    @Test
    void declaresTheXsiPrefixOnTheGranteeAsS3Does() {
        String document = new String(S3Xml.renderAccessControlPolicy(new AccessControlPolicy(
                new Owner(OWNER_ID), List.of(new Grant(new Grantee.CanonicalUser(OWNER_ID), Permission.FULL_CONTROL)))),
                StandardCharsets.UTF_8);

        assertThat(document).contains("<Grantee xmlns:xsi=\"" + XSI + "\" xsi:type=\"CanonicalUser\"><ID>" + OWNER_ID
                + "</ID></Grantee><Permission>FULL_CONTROL</Permission>");
    }

    @Test
    void survivesTheRoundTrip() {
        assertThat(S3Xml.parseAccessControlPolicy(body(S3Xml.renderAccessControlPolicy(EVERY_KIND)))).isEqualTo(EVERY_KIND);
        var empty = new AccessControlPolicy(new Owner(OWNER_ID), List.of());
        assertThat(S3Xml.parseAccessControlPolicy(body(S3Xml.renderAccessControlPolicy(empty)))).isEqualTo(empty);
    }

    @Test
    void readsThePutBucketAclSampleWithItsUndeclaredLeaves() {
        AccessControlPolicy policy = S3Xml.parseAccessControlPolicy(body("""
                <AccessControlPolicy%s>
                  <AccessControlList>
                    <Grant>
                      <Grantee xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="Group">
                        <URI xmlns="">http://acs.amazonaws.com/groups/s3/LogDelivery</URI>
                      </Grantee>
                      <Permission xmlns="">WRITE</Permission>
                    </Grant>
                    <Grant>
                      <Grantee xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="AmazonCustomerByEmail">
                        <EmailAddress xmlns="">xyz@amazon.com</EmailAddress>
                      </Grantee>
                      <Permission xmlns="">READ</Permission>
                    </Grant>
                  </AccessControlList>
                  <Owner>
                    <ID>852b113e7a2f25102679df27bb0ae12b3f85be6BucketOwnerCanonicalUserID</ID>
                    <DisplayName>OwnerDisplayName</DisplayName>
                  </Owner>
                </AccessControlPolicy>""".formatted(NAMESPACE)));

        assertThat(policy.owner()).isEqualTo(new Owner("852b113e7a2f25102679df27bb0ae12b3f85be6BucketOwnerCanonicalUserID",
                "OwnerDisplayName"));
        assertThat(policy.grants()).containsExactly(
                new Grant(new Grantee.Group(Grantee.Group.LOG_DELIVERY), Permission.WRITE),
                new Grant(new Grantee.AmazonCustomerByEmail("xyz@amazon.com"), Permission.READ));
    }

    @Test
    void readsAnyPrefixBoundToTheSchemaInstanceNamespace() {
        AccessControlPolicy policy = S3Xml.parseAccessControlPolicy(body(policyWithGrants(
                "<Grant><Grantee xmlns:i=\"" + XSI + "\" i:type=\"CanonicalUser\"><ID>abc</ID></Grantee>"
                        + "<Permission>READ</Permission></Grant>")));

        assertThat(policy.grants()).containsExactly(new Grant(new Grantee.CanonicalUser("abc"), Permission.READ));
    }

    @Test
    void refusesAPolicyWithoutOwnerOrList() {
        assertRefused(() -> S3Xml.parseAccessControlPolicy(body("<AccessControlPolicy><AccessControlList/></AccessControlPolicy>")),
                S3Error.MALFORMED_ACL_ERROR, "no Owner");
        assertRefused(() -> S3Xml.parseAccessControlPolicy(body(
                        "<AccessControlPolicy><Owner><ID>a</ID></Owner></AccessControlPolicy>")),
                S3Error.MALFORMED_ACL_ERROR, "no AccessControlList");
        assertRefused(() -> S3Xml.parseAccessControlPolicy(body(
                        "<AccessControlPolicy><Owner><DisplayName>a</DisplayName></Owner><AccessControlList/></AccessControlPolicy>")),
                S3Error.MALFORMED_ACL_ERROR, "The Owner has no ID");
    }

    @ParameterizedTest
    @ValueSource(strings = {"read", "FULLCONTROL", "ALL", ""})
    void refusesAPermissionS3DoesNotHave(String permission) {
        assertRefused(() -> S3Xml.parseAccessControlPolicy(body(policyWithGrants(
                        "<Grant><Grantee xmlns:xsi=\"" + XSI + "\" xsi:type=\"CanonicalUser\"><ID>a</ID></Grantee><Permission>"
                                + permission + "</Permission></Grant>"))),
                S3Error.MALFORMED_ACL_ERROR, "Grant 1 has a Permission other than");
    }

    @Test
    void refusesAGrantWithoutGranteeOrPermission() {
        assertRefused(() -> S3Xml.parseAccessControlPolicy(body(policyWithGrants("<Grant><Permission>READ</Permission></Grant>"))),
                S3Error.MALFORMED_ACL_ERROR, "Grant 1 has no Grantee");
        assertRefused(() -> S3Xml.parseAccessControlPolicy(body(policyWithGrants(
                        "<Grant><Grantee xmlns:xsi=\"" + XSI + "\" xsi:type=\"CanonicalUser\"><ID>a</ID></Grantee></Grant>"))),
                S3Error.MALFORMED_ACL_ERROR, "Grant 1 has no Permission");
    }

    @Test
    void refusesAGranteeWithoutItsTypeOrOfAnUnknownOne() {
        assertRefused(() -> S3Xml.parseAccessControlPolicy(body(policyWithGrants(
                        "<Grant><Grantee><ID>a</ID></Grantee><Permission>READ</Permission></Grant>"))),
                S3Error.MALFORMED_ACL_ERROR, "without xsi:type");
        assertRefused(() -> S3Xml.parseAccessControlPolicy(body(policyWithGrants(
                        "<Grant><Grantee type=\"CanonicalUser\"><ID>a</ID></Grantee><Permission>READ</Permission></Grant>"))),
                S3Error.MALFORMED_ACL_ERROR, "without xsi:type");
        assertRefused(() -> S3Xml.parseAccessControlPolicy(body(policyWithGrants(grantee("Canonical User", "<ID>a</ID>")))),
                S3Error.MALFORMED_ACL_ERROR, "a type S3 does not have");
    }

    @Test
    void refusesAGranteeWithoutItsIdentifyingElement() {
        assertRefused(() -> S3Xml.parseAccessControlPolicy(body(policyWithGrants(grantee("CanonicalUser", "<DisplayName>d</DisplayName>")))),
                S3Error.MALFORMED_ACL_ERROR, "CanonicalUser without ID");
        assertRefused(() -> S3Xml.parseAccessControlPolicy(body(policyWithGrants(grantee("Group", "<ID>a</ID>")))),
                S3Error.MALFORMED_ACL_ERROR, "Group without URI");
        assertRefused(() -> S3Xml.parseAccessControlPolicy(body(policyWithGrants(grantee("AmazonCustomerByEmail", "")))),
                S3Error.MALFORMED_ACL_ERROR, "AmazonCustomerByEmail without EmailAddress");
    }

    @Test
    void refusesAGroupS3DoesNotHave() {
        assertRefused(() -> S3Xml.parseAccessControlPolicy(body(policyWithGrants(
                        grantee("Group", "<URI>http://acs.amazonaws.com/groups/global/Everyone</URI>")))),
                S3Error.INVALID_ARGUMENT, "Invalid group uri");
    }

    @Test
    void acceptsAHundredGrantsAndRefusesMore() {
        String oneGrant = grantee("CanonicalUser", "<ID>a</ID>");
        assertThat(S3Xml.parseAccessControlPolicy(body(policyWithGrants(oneGrant.repeat(100)))).grants()).hasSize(100);
        assertRefused(() -> S3Xml.parseAccessControlPolicy(body(policyWithGrants(oneGrant.repeat(101)))),
                S3Error.MALFORMED_ACL_ERROR, "at most 100 grants");
    }

    @Test
    void refusesABodyThatIsNotThePolicyAsMalformedXml() {
        assertMalformed(() -> S3Xml.parseAccessControlPolicy(body("")), "empty");
        assertMalformed(() -> S3Xml.parseAccessControlPolicy(body("<AccessControlList/>")), "not AccessControlPolicy");
        assertMalformed(() -> S3Xml.parseAccessControlPolicy(body(policyWithGrants(
                "<Grant><Grantee xsi:type=\"Group\"/></Grant>"))), "not well-formed");
    }
}
