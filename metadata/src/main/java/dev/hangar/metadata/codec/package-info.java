/** Field conventions shared by the stored record format and the command codec. */
@NullMarked
package dev.hangar.metadata.codec;

import org.jspecify.annotations.NullMarked;
