/* Assembly fixture for the oracle tests (clang -g -shared -nostdlib at test time): a sized
   function with a label inside it, as BoringSSL's hand-written code has. llvm-symbolizer
   names the code after the label by the label (STT_NOTYPE), and so must devkit. */
    .text
    .globl  outer_function
    .type   outer_function, @function
outer_function:
    xorl    %eax, %eax
    addl    $1, %eax
    addl    $2, %eax
    addl    $3, %eax
inner_entry:
    addl    $4, %eax
    addl    $5, %eax
    addl    $6, %eax
    ret
    .size   outer_function, .-outer_function

    .globl  second_function
    .type   second_function, @function
second_function:
    movl    $7, %eax
    ret
    .size   second_function, .-second_function
