<?php
/**
 * The subscription e-mails, plain text. A theme overrides it by copying it to
 * yourtheme/recurring-payments-bridge/emails/plain/rps-subscription.php; which e-mail it is: `$email->id`.
 *
 * @var string       $greeting
 * @var list<string> $lines     what the e-mail says, one paragraph each
 * @var string       $email_heading
 * @var string       $additional_content
 * @var WC_Email     $email
 */

defined( 'ABSPATH' ) || exit;

echo '= ' . esc_html( wp_strip_all_tags( $email_heading ) ) . " =\n\n";
echo esc_html( $greeting ) . "\n\n";
foreach ( $lines as $line ) {
	echo esc_html( $line ) . "\n\n";
}
if ( $additional_content ) {
	echo esc_html( wp_strip_all_tags( wptexturize( $additional_content ) ) ) . "\n\n";
}
echo wp_kses_post( apply_filters( 'woocommerce_email_footer_text', get_option( 'woocommerce_email_footer_text' ) ) );
