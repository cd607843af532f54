package dev.hangar.s3api.xml;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The {@code AccessControlPolicy} document, both ways. A body that is not XML, or not this
 * document, is MalformedXML like any other; a policy that does not validate (no owner, no list, a
 * grant without a grantee or a permission, an unknown permission or grantee type) is S3's
 * MalformedACLError, as LocalStack recorded S3 answering; a group S3 does not have is
 * InvalidArgument.
 */
final class AclDocuments {
    private static final String ROOT = "AccessControlPolicy";
    private static final Set<String> OWNER_ELEMENTS = Set.of("ID", "DisplayName");
    private static final Set<String> GRANTEE_ELEMENTS = Set.of("ID", "DisplayName", "EmailAddress", "URI");

    private AclDocuments() {}

    static AccessControlPolicy parse(InputStream body, int maximumBytes) {
        XmlDocumentReader document = RequestValues.open(body, maximumBytes, ROOT);
        @Nullable Owner owner = null;
        @Nullable List<Grant> grants = null;
        while (document.nextChild(ROOT)) {
            String name = document.s3LocalName();
            if ("Owner".equals(name)) {
                owner = RequestValues.once(owner, owner(document), ROOT, "Owner");
            } else if ("AccessControlList".equals(name)) {
                grants = RequestValues.once(grants, grants(document), ROOT, "AccessControlList");
            } else {
                document.skip();
            }
        }
        document.finish();
        if (owner == null) {
            throw RequestValues.malformedAcl("The policy has no Owner.");
        }
        if (grants == null) {
            throw RequestValues.malformedAcl("The policy has no AccessControlList.");
        }
        return new AccessControlPolicy(owner, grants);
    }

    private static Owner owner(XmlDocumentReader document) {
        Map<String, String> leaves = document.readLeaves(OWNER_ELEMENTS, "Owner");
        String id = leaves.get("ID");
        if (id == null) {
            throw RequestValues.malformedAcl("The Owner has no ID.");
        }
        return new Owner(id.strip(), leaves.get("DisplayName"));
    }

    private static List<Grant> grants(XmlDocumentReader document) {
        List<Grant> grants = new ArrayList<>();
        while (document.nextChild("AccessControlList")) {
            if (document.isS3Element("Grant")) {
                if (grants.size() == S3Xml.MAXIMUM_GRANTS) {
                    throw RequestValues.malformedAcl("An ACL has at most " + S3Xml.MAXIMUM_GRANTS + " grants.");
                }
                grants.add(grant(document, "Grant " + (grants.size() + 1)));
            } else {
                document.skip();
            }
        }
        return grants;
    }

    private static Grant grant(XmlDocumentReader document, String context) {
        @Nullable Grantee grantee = null;
        @Nullable String permission = null;
        while (document.nextChild(context)) {
            String name = document.s3LocalName();
            if ("Grantee".equals(name)) {
                grantee = RequestValues.once(grantee, grantee(document, context), context, "Grantee");
            } else if ("Permission".equals(name)) {
                permission = RequestValues.once(permission, document.text(), context, "Permission");
            } else {
                document.skip();
            }
        }
        if (grantee == null) {
            throw RequestValues.malformedAcl(context + " has no Grantee.");
        }
        if (permission == null) {
            throw RequestValues.malformedAcl(context + " has no Permission.");
        }
        return new Grant(grantee, permission(permission, context));
    }

    private static Grant.Permission permission(String text, String context) {
        String value = text.strip();
        for (Grant.Permission permission : Grant.Permission.values()) {
            if (permission.name().equals(value)) {
                return permission;
            }
        }
        throw RequestValues.malformedAcl(
                context + " has a Permission other than FULL_CONTROL, WRITE, WRITE_ACP, READ or READ_ACP.");
    }

    private static Grantee grantee(XmlDocumentReader document, String context) {
        // Read before the children: the attribute belongs to the start tag the cursor is on.
        String type = document.attribute(XmlDocumentWriter.XSI_NAMESPACE, "type");
        Map<String, String> leaves = document.readLeaves(GRANTEE_ELEMENTS, context + " Grantee");
        if (type == null) {
            throw RequestValues.malformedAcl(context + " has a Grantee without xsi:type.");
        }
        switch (type.strip()) {
            case "CanonicalUser" -> {
                String id = leaves.get("ID");
                if (id == null) {
                    throw RequestValues.malformedAcl(context + " has a CanonicalUser without ID.");
                }
                return new Grantee.CanonicalUser(id.strip(), leaves.get("DisplayName"));
            }
            case "Group" -> {
                String uri = leaves.get("URI");
                if (uri == null) {
                    throw RequestValues.malformedAcl(context + " has a Group without URI.");
                }
                if (!Grantee.Group.KNOWN.contains(uri.strip())) {
                    throw RequestValues.invalidArgument("Invalid group uri");
                }
                return new Grantee.Group(uri.strip());
            }
            case "AmazonCustomerByEmail" -> {
                String email = leaves.get("EmailAddress");
                if (email == null) {
                    throw RequestValues.malformedAcl(context + " has an AmazonCustomerByEmail without EmailAddress.");
                }
                return new Grantee.AmazonCustomerByEmail(email.strip());
            }
            default -> throw RequestValues.malformedAcl(context + " has a Grantee of a type S3 does not have.");
        }
    }

    static byte[] render(AccessControlPolicy policy) {
        XmlDocumentWriter document = XmlDocumentWriter.inS3Namespace(ROOT);
        ResponseDocuments.owner(document, "Owner", policy.owner());
        document.start("AccessControlList");
        for (Grant grant : policy.grants()) {
            Grantee grantee = grant.grantee();
            document.start("Grant").startWithXsiType("Grantee", grantee.xsiType());
            switch (grantee) {
                case Grantee.CanonicalUser user ->
                    document.element("ID", user.id()).elementIfPresent("DisplayName", user.displayName());
                case Grantee.Group group -> document.element("URI", group.uri());
                case Grantee.AmazonCustomerByEmail customer ->
                    document.element("EmailAddress", customer.emailAddress());
            }
            document.end().element("Permission", grant.permission().name()).end();
        }
        return document.end().finish();
    }
}
