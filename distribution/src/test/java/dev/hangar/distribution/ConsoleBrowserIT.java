package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.hangar.distribution.support.RandomContent;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.ObjectVersion;

/**
 * The web console in a real browser: Debian's Chromium, headless, driven through Debian's chromedriver by
 * Selenium. Each test signs in as an operator would and does what the console is for (buckets, objects and
 * their versions, keys and their grants, the node's health, storage and request charts), then checks through
 * the S3 API or the administration API that it happened. Every test saves a screenshot of the page it ends on
 * into {@code target/console-screenshots} (docs/console.md shows them).
 *
 * <p>Needs {@code /usr/bin/chromium} and {@code /usr/bin/chromedriver} (other paths through the system
 * properties {@code hangar.chromium} and {@code hangar.chromedriver}); {@code interop/setup.sh} installs both.
 * Without them it fails, saying so, unless {@code HANGAR_BROWSER=skip} (environment or system property).
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class ConsoleBrowserIT extends AbstractS3IT {
    private static final Path SCREENSHOTS = Path.of("target", "console-screenshots");
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @TempDir
    static Path browserFiles;

    private static ChromeDriver browser;
    private static WebDriverWait wait;

    @Override
    protected boolean usesTheServersAdministration() {
        return true;
    }

    @BeforeAll
    static void startBrowser() throws IOException {
        Path chromium = Path.of(System.getProperty("hangar.chromium", "/usr/bin/chromium"));
        Path chromedriver = Path.of(System.getProperty("hangar.chromedriver", "/usr/bin/chromedriver"));
        boolean present = Files.isExecutable(chromium) && Files.isExecutable(chromedriver);
        String skip = Optional.ofNullable(System.getProperty("HANGAR_BROWSER")).orElse(System.getenv("HANGAR_BROWSER"));
        assumeFalse(!present && "skip".equalsIgnoreCase(skip), "no Chromium, and HANGAR_BROWSER=skip");
        assertThat(present).as("the console's browser test needs %s and %s: run `bash interop/setup.sh` (as root it"
                + " installs Debian's chromium and chromium-driver), or set HANGAR_BROWSER=skip", chromium, chromedriver)
                .isTrue();
        Files.createDirectories(SCREENSHOTS);
        Path downloads = Files.createDirectories(browserFiles.resolve("downloads"));
        ChromeOptions options = new ChromeOptions()
                .setBinary(chromium.toFile())
                // No network but loopback here: whatever Chromium would fetch for itself is turned off.
                .addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                        "--disable-quic", "--no-first-run", "--disable-background-networking",
                        "--disable-component-update", "--disable-sync", "--window-size=1280,900",
                        "--user-data-dir=" + browserFiles.resolve("profile"));
        options.setExperimentalOption("prefs", java.util.Map.of(
                "download.default_directory", downloads.toString(), "download.prompt_for_download", false));
        // The driver given by path: Selenium Manager would otherwise try to download one.
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(chromedriver.toFile())
                .usingAnyFreePort()
                .build();
        browser = new ChromeDriver(service, options);
        // A listing or key table redrawn between finding an element and reading it: look again.
        wait = (WebDriverWait) new WebDriverWait(browser, PATIENCE).ignoring(StaleElementReferenceException.class);
    }

    @AfterAll
    static void stopBrowser() {
        if (browser != null) {
            browser.quit();
        }
    }

    @BeforeEach
    void signIn() {
        browser.get(managementEndpoint() + "/console/");
        // Each test signs in afresh: the tab keeps the token of the test before.
        browser.executeScript("sessionStorage.clear()");
        browser.navigate().refresh();
        WebElement token = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("token")));
        token.sendKeys(AdminApi.TOKEN);
        browser.findElement(By.cssSelector("#login-form button")).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("nav")));
    }

    @Test
    void aWrongTokenIsRefused() {
        browser.findElement(By.id("sign-out")).click();
        WebElement token = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("token")));
        token.sendKeys("not-the-token");
        browser.findElement(By.cssSelector("#login-form button")).click();
        wait.until(ExpectedConditions.textToBe(By.id("status"), "Wrong token."));
        assertThat(browser.findElement(By.id("nav")).isDisplayed()).isFalse();
        screenshot("01-sign-in");
    }

    @Test
    void bucketsAndObjects() throws Exception {
        String bucket = newBucketName("console");
        // The form comes with the bucket list, once the console's ListBuckets has answered (the suite's server
        // holds hundreds of buckets: on a loaded machine that took longer than the sign-in's wait).
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("new-bucket"))).sendKeys(bucket);
        browser.findElement(By.cssSelector("#create-bucket button")).click();
        WebElement link = wait.until(ExpectedConditions.elementToBeClickable(
                By.cssSelector("tr[data-bucket='" + bucket + "'] a")));
        assertThat(s3.listBuckets().buckets()).anyMatch(b -> b.name().equals(bucket));
        screenshot("02-buckets");

        s3.putObject(r -> r.bucket(bucket).key("docs/readme.txt"), RequestBody.fromString("read me"));
        link.click();
        // An upload from disk: two files, one larger than a chunk.
        byte[] large = RandomContent.of(7, 2L * CHUNK_SIZE + 5).newStream().readAllBytes();
        Path photo = Files.write(browserFiles.resolve("photo.bin"), large);
        Path note = Files.writeString(browserFiles.resolve("note.txt"), "a note");
        WebElement files = wait.until(ExpectedConditions.presenceOfElementLocated(By.id("upload-files")));
        files.sendKeys(photo + "\n" + note);
        browser.findElement(By.cssSelector("#upload button")).click();
        wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("tr[data-key='photo.bin']")));
        wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("tr[data-key='note.txt']")));
        assertThat(s3.getObjectAsBytes(r -> r.bucket(bucket).key("photo.bin")).asByteArray()).isEqualTo(large);
        assertThat(s3.getObjectAsBytes(r -> r.bucket(bucket).key("note.txt")).asUtf8String()).isEqualTo("a note");
        screenshot("03-objects");

        // Into the folder, and a download to disk.
        browser.findElement(By.cssSelector("tr[data-prefix='docs/'] a")).click();
        row("docs/readme.txt").findElement(By.xpath(".//button[text()='Download']")).click();
        Path downloaded = browserFiles.resolve("downloads").resolve("readme.txt");
        wait.until(driver -> Files.exists(downloaded));
        wait.until(driver -> readable(downloaded).equals("read me"));

        // Delete asks once more, then deletes.
        WebElement delete = row("docs/readme.txt").findElement(By.xpath(".//button[text()='Delete']"));
        delete.click();
        wait.until(ExpectedConditions.textToBePresentInElement(delete, "Confirm"));
        delete.click();
        wait.until(ExpectedConditions.invisibilityOfElementLocated(By.cssSelector("tr[data-key='docs/readme.txt']")));
        assertS3Status(() -> s3.headObject(r -> r.bucket(bucket).key("docs/readme.txt")), 404);
    }

    @Test
    void versions() {
        String bucket = createBucket("console-v");
        browser.get(managementEndpoint() + "/console/#/b/" + bucket + "/");
        wait.until(ExpectedConditions.elementToBeClickable(By.id("versioning"))).click();
        wait.until(ExpectedConditions.textToBe(By.id("versioning-status"), "Enabled"));
        assertThat(s3.getBucketVersioning(r -> r.bucket(bucket)).status()).isEqualTo(BucketVersioningStatus.ENABLED);

        s3.putObject(r -> r.bucket(bucket).key("report.csv"), RequestBody.fromString("first"));
        s3.putObject(r -> r.bucket(bucket).key("report.csv"), RequestBody.fromString("second"));
        s3.deleteObject(r -> r.bucket(bucket).key("report.csv"));
        browser.findElement(By.id("show-versions")).click();
        wait.until(driver -> driver.findElements(By.cssSelector("tr[data-key='report.csv']")).size() == 3);
        screenshot("04-versions");

        // The oldest version, deleted for good from the console.
        List<ObjectVersion> before = s3.listObjectVersions(r -> r.bucket(bucket)).versions();
        String oldest = before.stream().filter(v -> !v.isLatest()).reduce((a, b) -> b).orElseThrow().versionId();
        WebElement delete = browser.findElement(By.cssSelector("tr[data-version='" + oldest + "']"))
                .findElement(By.xpath(".//button[text()='Delete']"));
        delete.click();
        wait.until(ExpectedConditions.textToBePresentInElement(delete, "Confirm"));
        delete.click();
        wait.until(driver -> driver.findElements(By.cssSelector("tr[data-key='report.csv']")).size() == 2);
        assertThat(s3.listObjectVersions(r -> r.bucket(bucket)).versions()).extracting(ObjectVersion::versionId)
                .hasSize(1).doesNotContain(oldest);
        assertThat(s3.getObjectAsBytes(r -> r.bucket(bucket).key("report.csv").versionId(
                s3.listObjectVersions(l -> l.bucket(bucket)).versions().get(0).versionId())).asUtf8String())
                .isEqualTo("second");
        assertS3Error(() -> s3.getObject(r -> r.bucket(bucket).key("report.csv")), 404, "NoSuchKey");
    }

    @Test
    void keysAndGrants() {
        String bucket = createBucket("console-k");
        s3.putObject(r -> r.bucket(bucket).key("shared.txt"), RequestBody.fromString("shared"));
        browser.findElement(By.linkText("Keys")).click();
        WebElement form = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("create-key")));
        form.findElement(By.className("grant-bucket")).sendKeys(bucket);
        form.findElement(By.className("grant-read")).click();
        form.findElement(By.tagName("button")).click();
        String id = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("created-id"))).getText();
        String secret = browser.findElement(By.id("created-secret")).getText();
        wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("tr[data-key-id='" + id + "']")));
        screenshot("05-keys");

        try (var reader = clientFor(id, secret)) {
            assertThat(reader.getObjectAsBytes(r -> r.bucket(bucket).key("shared.txt")).asUtf8String()).isEqualTo("shared");
            assertS3Error(() -> reader.putObject(r -> r.bucket(bucket).key("no.txt"), RequestBody.fromString("no")),
                    403, "AccessDenied");

            // Write granted as well, from the key's row.
            WebElement row = browser.findElement(By.cssSelector("tr[data-key-id='" + id + "']"));
            row.findElement(By.className("grant-bucket")).sendKeys(bucket);
            row.findElement(By.className("grant-read")).click();
            row.findElement(By.className("grant-write")).click();
            row.findElement(By.xpath(".//button[text()='Grant']")).click();
            wait.until(driver -> driver.findElement(By.cssSelector("tr[data-key-id='" + id + "']")).getText()
                    .contains(bucket + ": read, write"));
            reader.putObject(r -> r.bucket(bucket).key("yes.txt"), RequestBody.fromString("yes"));

            WebElement revoke = browser.findElement(By.cssSelector("tr[data-key-id='" + id + "']"))
                    .findElement(By.xpath(".//button[text()='Revoke']"));
            revoke.click();
            wait.until(ExpectedConditions.textToBePresentInElement(revoke, "Confirm"));
            revoke.click();
            wait.until(ExpectedConditions.invisibilityOfElementLocated(By.cssSelector("tr[data-key-id='" + id + "']")));
            assertS3Error(() -> reader.getObject(r -> r.bucket(bucket).key("shared.txt")), 403, "InvalidAccessKeyId");
        }
    }

    @Test
    void clusterHealthAndStorage() {
        browser.findElement(By.linkText("Cluster")).click();
        WebElement health = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("health")));
        assertThat(health.getText()).isEqualTo("Health: UP");
        assertThat(browser.findElement(By.id("single-node")).getText()).contains("single node");
        assertThat(browser.findElement(By.cssSelector("tr[data-component='diskSpace']")).getText()).contains("UP");
        assertThat(browser.findElement(By.id("view")).getText()).contains("Storage", "stored", "objects", "blocks");
        screenshot("06-cluster");
    }

    @Test
    void requestAndStorageCharts() {
        String bucket = createBucket("console-m");
        browser.findElement(By.linkText("Metrics")).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("chart-rate")));
        // Requests between the samples (every 5 s): the rate chart draws a line of two points from three samples.
        wait.until(driver -> {
            s3.putObject(r -> r.bucket(bucket).key("tick"), RequestBody.fromString("tick"));
            List<WebElement> line = driver.findElements(By.cssSelector("#chart-rate polyline"));
            return !line.isEmpty() && line.get(0).getAttribute("points").contains(" ")
                    && Double.parseDouble(driver.findElement(By.cssSelector("#chart-rate .value")).getText()) > 0;
        });
        assertThat(browser.findElement(By.cssSelector("#chart-stored .value")).getText()).matches("[0-9.]+ (B|KiB|MiB|GiB)");
        assertThat(Double.parseDouble(browser.findElement(By.cssSelector("#chart-latency .value")).getText()))
                .as("mean latency in ms").isPositive().isLessThan(60_000);
        screenshot("07-metrics");
    }

    /** The page each test ends on, passed or failed: what a failure looked like. */
    @AfterEach
    void lastPage(TestInfo test) {
        if (browser != null) {
            screenshot("last-" + test.getTestMethod().map(java.lang.reflect.Method::getName).orElse("test"));
        }
    }

    private WebElement row(String key) {
        return wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("tr[data-key='" + key + "']")));
    }

    private static String readable(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException notYet) {
            return "";
        }
    }

    private static void screenshot(String name) {
        try {
            Files.write(SCREENSHOTS.resolve(name + ".png"), browser.getScreenshotAs(OutputType.BYTES));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
