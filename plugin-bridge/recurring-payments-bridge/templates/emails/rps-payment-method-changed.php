<?php
/**
 * Payment method changed (HTML). A theme overrides it by copying it to
 * yourtheme/recurring-payments-bridge/emails/rps-payment-method-changed.php.
 *
 * @var array<string, mixed> $subscription the subscription as the service answered it
 * @var array<string, mixed> $event        the service's callback
 * @var list<string>         $others       other subscriptions on the new payment method
 * @var string               $customer_name
 * @var string               $email_heading
 * @var string               $additional_content
 * @var WC_Email             $email
 */

defined( 'ABSPATH' ) || exit;

$name = (string) ( $subscription['name'] ?? '' );
/* translators: %s: the subscription's name */
$lines = array( sprintf( __( 'Your subscription %s is now paid with your new payment method.', 'recurring-payments-bridge' ), $name ) );
if ( $others ) {
	/* translators: %s: names of subscriptions, comma-separated */
	$lines[] = sprintf( __( 'So are: %s.', 'recurring-payments-bridge' ), implode( ', ', $others ) );
}
/* translators: %s: the customer's first name */
$greeting = '' !== $customer_name ? sprintf( __( 'Hi %s,', 'recurring-payments-bridge' ), $customer_name ) : __( 'Hello,', 'recurring-payments-bridge' );

do_action( 'woocommerce_email_header', $email_heading, $email );
?>
<p><?php echo esc_html( $greeting ); ?></p>
<?php foreach ( $lines as $line ) : ?>
<p><?php echo esc_html( $line ); ?></p>
<?php endforeach; ?>
<?php
if ( $additional_content ) {
	echo wp_kses_post( wpautop( wptexturize( $additional_content ) ) );
}
do_action( 'woocommerce_email_footer', $email );
