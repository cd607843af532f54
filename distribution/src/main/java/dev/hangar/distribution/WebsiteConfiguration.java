package dev.hangar.distribution;

import dev.hangar.s3api.web.S3Api;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The static website endpoint: a listener of its own ({@code hangar.website.*}), where the Host
 * names the bucket and anonymous GET and HEAD are served from its website configuration. Its
 * requests go through the S3 metrics filter, as operation {@code WebsiteGet}.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBooleanProperty(name = "hangar.website.enabled", matchIfMissing = true)
class WebsiteConfiguration {

    @Bean
    WebsiteServer websiteServer(HangarProperties properties, S3Api api) {
        HangarProperties.Website website = properties.website();
        return new WebsiteServer(api.websiteHttpHandler(website.domain()), website.bindAddress(), website.port(),
                properties.http().limits());
    }
}
